/**
 * Where JSON text nests deeper than `maxDepth` arrays and objects: the index of the `[` or `{` that
 * opens level `maxDepth + 1`, or null when it never does. A scan without recursion, for text not yet
 * parsed: whatever walks a parsed value recursively (a schema validator, JSON.stringify, a deep
 * freeze) exhausts the stack on values nested some thousands deep, which a few kilobytes of text
 * can hold. The text need not be valid JSON; brackets inside strings do not count.
 * @param text JSON text.
 * @param maxDepth the most levels of nesting allowed (1: one array or object, holding no other).
 */
export function jsonNestingBeyond(text: string, maxDepth: number): number | null {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return index;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return null;
}
