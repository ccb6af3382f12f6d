/**
 * The parameter layout of each kernel (`.entry`) of PTX text, as its `.param` declarations give it:
 * each parameter at the next multiple of its alignment, as the cubin's metadata lays out the
 * parameter buffer.
 * @internal
 */
import type { ModuleKernelParameter } from '../capture/module-image-types.js';

/** A kernel's parameters and the bytes they span (to the end of the last). */
export interface KernelParameterLayout {
  readonly parameters: readonly ModuleKernelParameter[];
  readonly parameterBufferBytes: number;
}

const typeBytes: Readonly<Record<string, number>> = {
  b8: 1, u8: 1, s8: 1,
  b16: 2, u16: 2, s16: 2, f16: 2, bf16: 2,
  b32: 4, u32: 4, s32: 4, f32: 4, f16x2: 4, bf16x2: 4,
  b64: 8, u64: 8, s64: 8, f64: 8,
  b128: 16,
};

const PARAMETER = /^\.param (?:\.align (\d+) )?\.(\w+) (?:\.ptr (?:\.\w+ )*(?:\.align \d+ )?)?[\w$%]+ ?(?:\[(\d+)\])?$/;

/** The text without `//` and `/* *\/` comments, in one pass (no pattern that could scan it again and again). */
function withoutComments(text: string): string {
  const kept: string[] = [];
  let from = 0;
  let at = 0;
  while (at < text.length - 1) {
    if (text.charCodeAt(at) !== 0x2f) {
      at += 1;
      continue;
    }
    const next = text.charCodeAt(at + 1);
    if (next !== 0x2f && next !== 0x2a) {
      at += 1;
      continue;
    }
    kept.push(text.slice(from, at), ' ');
    const end = next === 0x2f ? text.indexOf('\n', at + 2) : text.indexOf('*/', at + 2);
    at = end === -1 ? text.length : next === 0x2f ? end : end + 2;
    from = at;
  }
  kept.push(text.slice(from));
  return kept.join('');
}

/** One declaration's size and alignment, or null for one this reader does not know. */
function declared(text: string): { readonly size: number; readonly alignment: number } | null {
  const match = PARAMETER.exec(text.replace(/\s+/g, ' ').trim());
  const elementBytes = match ? typeBytes[match[2]!] : undefined;
  if (!match || elementBytes === undefined) return null;
  const alignment = match[1] === undefined ? elementBytes : Number(match[1]);
  const size = elementBytes * (match[3] === undefined ? 1 : Number(match[3]));
  return alignment > 0 ? { size, alignment } : null;
}

function layoutOf(list: string): KernelParameterLayout | null {
  const declarations = list.trim() === '' ? [] : list.split(',');
  const parameters: ModuleKernelParameter[] = [];
  let end = 0;
  for (const [index, declaration] of declarations.entries()) {
    const found = declared(declaration);
    if (found === null) return null;
    const offset = Math.ceil(end / found.alignment) * found.alignment;
    parameters.push({ index, offset, size: found.size });
    end = offset + found.size;
  }
  // As the cubin's EIATTR_CBANK_PARAM_SIZE: the end of the last parameter, not padded further.
  return { parameters, parameterBufferBytes: end };
}

/**
 * The layouts of the kernels PTX text declares, by name; a kernel with a parameter this reader does
 * not know (an opaque texture reference, say) is left out. Linear in the text's length.
 */
export function ptxParameterLayouts(text: string): Map<string, KernelParameterLayout> {
  const layouts = new Map<string, KernelParameterLayout>();
  const code = withoutComments(text);
  const entry = /\.entry\s+([A-Za-z_$%][\w$%]*)\s*/g;
  for (let match = entry.exec(code); match !== null; match = entry.exec(code)) {
    const open = entry.lastIndex;
    if (code[open] !== '(') {
      layouts.set(match[1]!, { parameters: [], parameterBufferBytes: 0 });
      continue;
    }
    const close = code.indexOf(')', open);
    if (close === -1) break;
    const layout = layoutOf(code.slice(open + 1, close));
    if (layout !== null) layouts.set(match[1]!, layout);
    entry.lastIndex = close + 1;
  }
  return layouts;
}
