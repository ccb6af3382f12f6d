import { isProfileJson, profileFromJson } from '../profile/parse-profile-report.js';
import { profileReportSchemaId } from '../profile/profile-document.js';
import type { ProfileDocument } from '../profile/profile-document.js';
import { BenchReportError } from './bench-report-error.js';
import { benchReportSchema } from './bench-report.js';
import type { BenchReport } from './bench-report.js';
import { benchReportFromJson } from './parse-bench-report.js';
import { describeSchemaField, isJsonObject, parseJsonText } from './parse-json-text.js';
import { readReportText } from './read-report-text.js';

/** A kreplay document that `report` and `compare` read: a bench report or a profile. */
export type ReportDocument = { readonly kind: 'bench'; readonly report: BenchReport } | { readonly kind: 'profile'; readonly report: ProfileDocument };

const expected = `a kreplay bench report (schema ${JSON.stringify(benchReportSchema)}, kreplay bench --out) or a kreplay profile (schema ${JSON.stringify(profileReportSchemaId)}, kreplay profile --json)`;

/**
 * Parses a bench report or a profile, telling them apart by their `schema` field, and checks it
 * against its JSON Schema; `source` names it in errors.
 * @throws BenchReportError when the text is not JSON or is neither (naming what it expected), and
 * what parseBenchReport and parseProfileReport throw for a document of that kind that is not valid.
 */
export function parseReportDocument(text: string, source: string): ReportDocument {
  const value = parseJsonText(text, (what, cause) => new BenchReportError(source, what, `Pass ${expected}`, cause));
  if (isProfileJson(value)) return { kind: 'profile', report: profileFromJson(value, source) };
  if (isJsonObject(value) && value.schema === benchReportSchema) return { kind: 'bench', report: benchReportFromJson(value, source) };
  if (looksLikeUnversionedProfile(value)) {
    throw new BenchReportError(source, 'is a kreplay profile from before profiles carried a schema (it has dispatches and metrics, and no schema field)', 'Profile again with this kreplay (kreplay profile -o FILE) to compare or render it');
  }
  throw new BenchReportError(source, `is neither a kreplay bench report nor a kreplay profile (${describeSchemaField(value)})`, `Pass ${expected}`);
}

/** A profile as kreplay wrote them before they carried `schema`: an object with `dispatches` and `metrics` arrays. */
function looksLikeUnversionedProfile(value: unknown): boolean {
  return isJsonObject(value) && !('schema' in value) && Array.isArray(value['dispatches']) && Array.isArray(value['metrics']);
}

/**
 * Reads a bench report or a profile file ({@link parseReportDocument}).
 * @throws BenchReportError when the file cannot be read, is not JSON or is neither kind; what
 * parseBenchReport and parseProfileReport throw for an invalid document of its kind.
 */
export async function readReportDocument(path: string): Promise<ReportDocument> {
  return parseReportDocument(await readReportText(path, (what, cause) => new BenchReportError(path, what, 'Check the path of the report', cause)), path);
}
