import { shortJson } from '@kreplay/native';
import { benchReportJsonSchema } from './bench-report-json-schema.js';
import { jsonSchemaProblem } from './json-schema-check.js';

const shown = (value: unknown) => shortJson(value, 40);

/** The first of `entries` whose key an earlier one has, as `field "key" repeats field`. */
function duplicateKey(entries: readonly { readonly key: string }[], name: string): string | null {
  const seen = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const earlier = seen.get(entry.key);
    if (earlier !== undefined) return `${name}[${index}].key ${shown(entry.key)} repeats ${name}[${earlier}]`;
    seen.set(entry.key, index);
  }
  return null;
}

/**
 * What is wrong with a parsed bench report, naming the field (`rows[3].summary.meanDispatchMs is
 * negative (-1)`), or null when it follows the schema and no two rows (or fits) share a key.
 * @internal
 */
export function benchReportProblem(value: unknown): string | null {
  const problem = jsonSchemaProblem(benchReportJsonSchema, value);
  if (problem !== null) return problem;
  const report = value as { readonly rows: readonly { key: string }[]; readonly fits: readonly { key: string }[] };
  return duplicateKey(report.rows, 'rows') ?? duplicateKey(report.fits, 'fits');
}
