import { loadBinding } from '../addon/load-binding.js';
import { readPtxHeader } from '../kernels/ptx-module.js';
import { argumentError } from '../errors/validate.js';
import type { ModuleImage, ModuleImageEntry } from './module-image-types.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Lists the kernels of a CUDA module image (an ELF cubin, or a fatbin of cubins and PTX), each
 * kernel's parameters (index, offset, size) and parameter buffer size, the module's `__device__`
 * and `__constant__` globals, and the architecture of each entry. Reads the cubins' own metadata
 * (the .nv.info sections), so it knows kernels that cuFuncGetParamInfo does not. PTX text is one
 * `ptx` entry with its `.target` and PTX ISA version (its kernels are not listed). Needs no GPU.
 * @param bytes the image, e.g. the bytes of a `.cubin`, `.fatbin` or `.ptx` file.
 * @returns a deeply frozen description.
 * @throws {ArgumentError} when `bytes` is not a Uint8Array, or is not a well-formed image (the
 *   message names what is wrong: a truncated structure with its offset, a bad magic, an entry, a
 *   PTX header without a target).
 */
export function readModuleImage(bytes: Uint8Array): ModuleImage {
  if (!(bytes instanceof Uint8Array)) {
    throw argumentError('capture', 'bytes', 'readModuleImage takes the image as a Uint8Array', 'Pass the bytes of a cubin or fatbin, e.g. from fs.readFileSync');
  }
  const ptx = readPtxHeader(bytes);
  if (ptx !== null && 'problem' in ptx) {
    throw argumentError('capture', 'bytes', `the module image is malformed: ${ptx.problem}`, 'Pass whole PTX text, a cubin (ELF) or a fatbin as cuModuleLoadData takes it');
  }
  if (ptx !== null) {
    const entry: ModuleImageEntry = { kind: 'ptx', architecture: ptx.architecture, target: ptx.target, ptxVersion: ptx.version, compression: 'none', offset: 0, bytes: bytes.length, cubin: null };
    return deepFreeze({ fatbin: false, entries: [entry], hasPtx: true });
  }
  let image: Omit<ModuleImage, 'hasPtx'>;
  try {
    image = loadBinding().readModuleImage(bytes);
  } catch (error) {
    throw argumentError(
      'capture',
      'bytes',
      `the module image is malformed: ${(error as Error).message}`,
      'Pass a whole cubin (ELF) or fatbin as cuModuleLoadData takes it',
    );
  }
  return deepFreeze({ ...image, hasPtx: image.entries.some((entry) => entry.kind === 'ptx') });
}
