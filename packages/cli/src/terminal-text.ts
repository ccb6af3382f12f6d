/**
 * C0 and C1 control characters, DEL, and the Unicode marks that reorder text on a terminal (bidi
 * embeddings, overrides and isolates).
 */
const unprintable = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text a capture supplied (a kernel's name, a device name, a damaged record's reason) as the terminal
 * form may print it: each control character escaped (`\x1b`, `\x07`; a bidi mark as `\u202e`), so
 * that a name cannot move the cursor, recolour or retitle the terminal, or reorder the line. JSON
 * output keeps the text exact.
 */
export function terminalText(text: string): string {
  return text.replace(unprintable, (character) => {
    const code = character.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
