/**
 * Naming a field of a JSON document in an error message, for the JSON Schema validators of
 * @kreplay/native (capture folders) and @kreplay/bench (reports).
 */

/** A JSON Pointer (`/rows/0/summary`) as a field path (`rows[0].summary`); the document itself is ``. */
export function jsonPointerAsPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** A value as JSON of at most `limit` characters (then `...`), to show in a message. */
export function shortJson(value: unknown, limit = 40): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > limit ? `${text.slice(0, limit)}...` : text;
}
