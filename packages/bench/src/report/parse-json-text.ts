/** Whether `value` is a JSON object (not an array, not null). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value of a report's JSON text.
 * @throws what `fail` returns, given `is not JSON (the parser's message)`, when the text is not JSON.
 */
export function parseJsonText(text: string, fail: (what: string, cause: unknown) => Error): unknown {
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
