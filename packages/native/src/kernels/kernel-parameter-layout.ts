/**
 * The parameters a module image declares for its kernels (a cubin's metadata, or PTX `.entry`
 * declarations), and whether a parameter buffer holds them: a launch whose buffer is shorter makes
 * the driver read past it.
 * @internal
 */
import { readModuleImage } from '../capture/capture-module-image.js';
import { ptxParameterLayouts, type KernelParameterLayout } from './ptx-entry-parameters.js';

export type { KernelParameterLayout } from './ptx-entry-parameters.js';

const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];
const FATBIN_MAGIC = [0x50, 0xed, 0x55, 0xba];

/** PTX larger than this is not read (no module is near it; a string of it could not even be made). */
const MAXIMUM_PTX_BYTES = 2 ** 28;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((byte, index) => bytes[index] === byte);

/** Where a kernel's parameters end: the bytes a parameter buffer must hold for the kernel to read it all. */
export function parameterExtent(layout: KernelParameterLayout): number {
  return layout.parameters.reduce((end, parameter) => Math.max(end, parameter.offset + parameter.size), 0);
}

/**
 * The parameter layout of each kernel a module image declares, by name: from the cubins' metadata
 * of an ELF cubin or a fatbin (the largest where several cubins declare one), from the `.entry`
 * declarations of PTX text. A kernel is absent when the image does not say (a zstd-compressed
 * cubin, PTX inside a fatbin, an image that is neither).
 */
export function moduleParameterLayouts(image: Uint8Array): ReadonlyMap<string, KernelParameterLayout> {
  if (!startsWith(image, ELF_MAGIC) && !startsWith(image, FATBIN_MAGIC)) {
    if (image.length > MAXIMUM_PTX_BYTES) return new Map();
    return ptxParameterLayouts(Buffer.from(image.buffer, image.byteOffset, image.byteLength).toString('latin1'));
  }
  const layouts = new Map<string, KernelParameterLayout>();
  let described: ReturnType<typeof readModuleImage>;
  try {
    described = readModuleImage(image);
  } catch {
    return layouts; // malformed: the driver will say so when it loads it
  }
  for (const entry of described.entries) {
    for (const kernel of entry.cubin?.kernels ?? []) {
      const known = layouts.get(kernel.name);
      if (known === undefined || parameterExtent(kernel) > parameterExtent(known)) {
        layouts.set(kernel.name, { parameters: kernel.parameters, parameterBufferBytes: kernel.parameterBufferBytes });
      }
    }
  }
  return layouts;
}

/**
 * What is wrong with launching kernel `name` of this layout with a parameter buffer of `bufferBytes`
 * (a phrase like {@link parameterBufferProblem}'s), or null when it holds exactly its parameters:
 * CUDA refuses a buffer longer than where the last parameter ends with
 * CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (an H100 refused 32 bytes for 28 bytes of parameters).
 */
export function launchBufferProblem(name: string, bufferBytes: number, layout: KernelParameterLayout): string | null {
  const extent = parameterExtent(layout);
  if (bufferBytes <= extent) return parameterBufferProblem(name, bufferBytes, layout);
  return `holds ${bufferBytes} bytes, more than the ${extent} bytes where the last parameter of kernel ${name} ends in its module; CUDA refuses a longer buffer (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)`;
}

/**
 * What is wrong with a parameter buffer of `bufferBytes` for kernel `name` of this layout, as a phrase
 * that follows the buffer's name (`holds 0 bytes, but its module declares ...`), or null when it
 * holds every parameter.
 */
export function parameterBufferProblem(name: string, bufferBytes: number, layout: KernelParameterLayout): string | null {
  const extent = parameterExtent(layout);
  if (bufferBytes >= extent) return null;
  const count = layout.parameters.length;
  return `holds ${bufferBytes} bytes, but its module declares ${count} parameter${count === 1 ? '' : 's'} of kernel ${name} in ${layout.parameterBufferBytes} bytes (the last ending at byte ${extent})`;
}
