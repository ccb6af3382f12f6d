import { jsonNestingBeyond } from '@kreplay/native';

/**
 * Levels of nested arrays and objects a report may have (the reports written so far have 7);
 * deeper text is refused before it is parsed, so no reader walks it recursively.
 */
const MAXIMUM_REPORT_DEPTH = 32;

/** Whether `value` is a JSON object (not an array, not null). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value of a report's JSON text.
 * @throws what `fail` returns, given `nests arrays and objects deeper than ...`, for text nested past 32 levels.
 * @throws what `fail` returns, given `is not JSON (the parser's message)`, when the text is not JSON.
 */
export function parseJsonText(text: string, fail: (what: string, cause: unknown) => Error): unknown {
  const deep = jsonNestingBeyond(text, MAXIMUM_REPORT_DEPTH);
  if (deep !== null) throw fail(`nests arrays and objects deeper than the ${MAXIMUM_REPORT_DEPTH} levels a report has (at character ${deep})`, undefined);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(`is not JSON (${(error as Error).message.replace(/\s+/g, ' ')})`, error);
  }
}

/** `schema "x"`, or `no schema field`: what a document says it is, for a message. */
export function describeSchemaField(value: unknown): string {
  return isJsonObject(value) && 'schema' in value ? `schema ${JSON.stringify(value.schema)}` : 'no schema field';
}
