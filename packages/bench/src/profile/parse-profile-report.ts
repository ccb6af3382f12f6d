import { jsonSchemaProblem } from '../report/json-schema-check.js';
import { describeSchemaField, isJsonObject, parseJsonText } from '../report/parse-json-text.js';
import { readReportText } from '../report/read-report-text.js';
import { profileReportSchemaId, profileReportVersion } from './profile-document.js';
import type { ProfileDocument } from './profile-document.js';
import { profileReportJsonSchema } from './profile-report-json-schema.js';
import { ProfileReportError } from './profile-report-error.js';

const written = 'Pass a profile written by kreplay profile --json';
/** The `schema` of a profile of any version: `urn:kreplay:schema:profile-report:`. */
const profileSchemaPrefix = profileReportSchemaId.slice(0, profileReportSchemaId.lastIndexOf(':') + 1);

/** Whether a parsed JSON document says it is a kreplay profile (of any version). */
export function isProfileJson(value: unknown): boolean {
  return isJsonObject(value) && typeof value.schema === 'string' && value.schema.startsWith(profileSchemaPrefix);
}

/** What is wrong with a profile that follows the schema: a dispatch whose `range` names no range. */
function rangeProblem(profile: ProfileDocument): string | null {
  for (const [index, row] of profile.dispatches.entries()) {
    if (row.range !== null && row.range >= profile.ranges.length) {
      return `dispatches[${index}].range is ${row.range}, and ranges has ${profile.ranges.length} entr${profile.ranges.length === 1 ? 'y' : 'ies'}`;
    }
  }
  return null;
}

/**
 * What is wrong with a parsed profile, naming the field (`dispatches[3].wallMs is negative (-1)`),
 * or null when it follows {@link profileReportJsonSchema} and each dispatch's range exists.
 */
export function profileReportProblem(value: unknown): string | null {
  return jsonSchemaProblem(profileReportJsonSchema, value) ?? rangeProblem(value as ProfileDocument);
}

/**
 * {@link parseProfileReport} of a value already parsed from JSON.
 * @throws ProfileReportError as parseProfileReport does, for all but JSON syntax.
 */
export function profileFromJson(value: unknown, source: string): ProfileDocument {
  if (!isProfileJson(value)) throw new ProfileReportError(source, `is not a kreplay profile (${describeSchemaField(value)}, not ${JSON.stringify(profileReportSchemaId)})`, written);
  const { schema, schemaVersion } = value as { schema: string; schemaVersion?: unknown };
  if (schema !== profileReportSchemaId || schemaVersion !== profileReportVersion) {
    const version = schemaVersion === undefined ? 'with no schemaVersion field' : `of version ${JSON.stringify(schemaVersion)}`;
    throw new ProfileReportError(source, `is a profile ${version} (${schema}); this kreplay reads version ${profileReportVersion}`, 'Use the kreplay version that wrote it, or profile again');
  }
  const problem = profileReportProblem(value);
  if (problem !== null) throw new ProfileReportError(source, `is a malformed profile: ${problem}`, `${written}, unchanged`);
  return value as ProfileDocument;
}

/**
 * Parses and checks the text of a profile (`kreplay profile --json`) against its JSON Schema
 * ({@link profileReportJsonSchema}); `source` names it in errors (a file path).
 * @throws ProfileReportError when the text is not JSON, not a kreplay profile (its `schema` is not
 * a profile's), of another version, or not valid against the schema (naming the field).
 */
export function parseProfileReport(text: string, source: string): ProfileDocument {
  return profileFromJson(parseJsonText(text, (what, cause) => new ProfileReportError(source, what, written, cause)), source);
}

/**
 * Reads and checks a profile file.
 * @throws ProfileReportError when the file cannot be read or is not a profile of this version.
 */
export async function readProfileReport(path: string): Promise<ProfileDocument> {
  return parseProfileReport(await readReportText(path, (what, cause) => new ProfileReportError(path, what, 'Check the path of the profile', cause)), path);
}
