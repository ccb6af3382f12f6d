import { captureReadLimits } from './capture-read-limits.js';
import { jsonNestingBeyond } from '../file-input/json-nesting.js';

/**
 * What is wrong with the nesting of a capture file's JSON text, as a phrase that follows the file's
 * name, or null when it nests no deeper than the format does. Checked before the text is parsed.
 * @internal
 */
export function captureJsonNestingProblem(text: string): string | null {
  const at = jsonNestingBeyond(text, captureReadLimits.jsonDepth);
  return at === null ? null : `nests arrays and objects deeper than the ${captureReadLimits.jsonDepth} levels a capture file has (at character ${at})`;
}
