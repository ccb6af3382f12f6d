import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { jsonPointerAsPath, shortJson } from '@kreplay/native';
import { benchReportJsonSchema } from './bench-report-json-schema.js';

let compiled: ValidateFunction | undefined;

/** The schema's validator, compiled on first use. */
function validator(): ValidateFunction {
  compiled ??= new Ajv({ allowUnionTypes: true, verbose: true }).compile(benchReportJsonSchema);
  return compiled;
}

const shown = (value: unknown) => shortJson(value, 40);

/** One schema error as `field what`, naming the field by its path in the report. */
function describeError(error: ErrorObject): string {
  const field = jsonPointerAsPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const at = field === '' ? 'the report' : field;
  switch (error.keyword) {
    case 'required':
      return `${field === '' ? '' : `${field}.`}${String(params['missingProperty'])} is missing`;
    case 'type':
      return `${at} is ${shown(error.data)}, not ${Array.isArray(params['type']) ? params['type'].join(' or ') : String(params['type'])}`;
    case 'minimum':
      return params['limit'] === 0 ? `${at} is negative (${shown(error.data)})` : `${at} is ${shown(error.data)}, below ${String(params['limit'])}`;
    case 'maximum':
      return `${at} is ${shown(error.data)}, above ${String(params['limit'])}`;
    case 'const':
      return `${at} is ${shown(error.data)}, not ${shown(params['allowedValue'])}`;
    case 'enum':
      return `${at} is ${shown(error.data)}, not one of ${(params['allowedValues'] as unknown[]).map(shown).join(', ')}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

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
  const validate = validator();
  if (!validate(value)) return describeError(validate.errors![0]!);
  const report = value as { readonly rows: readonly { key: string }[]; readonly fits: readonly { key: string }[] };
  return duplicateKey(report.rows, 'rows') ?? duplicateKey(report.fits, 'fits');
}
