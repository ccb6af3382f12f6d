import { readCaptureBlob } from './capture-blob.js';
import type { CaptureFolder } from './capture-folder-types.js';
import { readModuleImage } from './capture-module-image.js';
import { smNumber } from '../kernels/sm-architecture.js';

/** What the cubin a captured function ran from says of its machine code. */
export interface CapturedKernelCode {
  /** Bytes of its machine code (`ModuleKernel.codeBytes`). */
  readonly codeBytes: number;
  /** Registers per thread, when the cubin says. */
  readonly registers: number | null;
}

/**
 * For each distinct function of a capture's launches, what the cubin of its module for the
 * capture's architecture says of its code; null where the module holds no such cubin that
 * readModuleImage can describe (PTX only, a zstd-compressed fatbin, a blob that cannot be read).
 * Each module image is read once.
 */
export async function capturedKernelCode(folder: CaptureFolder): Promise<ReadonlyMap<string, CapturedKernelCode | null>> {
  const architecture = smNumber(folder.manifest.device.architecture);
  const images = new Map<string, ReturnType<typeof readModuleImage> | null>();
  const codes = new Map<string, CapturedKernelCode | null>();
  for (const launch of folder.launches) {
    if (codes.has(launch.function)) continue;
    if (!images.has(launch.module)) {
      const image = await readCaptureBlob(folder.directory, launch.module)
        .then((read) => ('bytes' in read ? readModuleImage(read.bytes) : null))
        .catch(() => null);
      images.set(launch.module, image);
    }
    const cubin = images.get(launch.module)?.entries.find((entry) => entry.kind === 'cubin' && entry.architecture === architecture)?.cubin;
    const kernel = cubin?.kernels.find((candidate) => candidate.name === launch.function);
    codes.set(launch.function, kernel ? { codeBytes: kernel.codeBytes, registers: kernel.registers } : null);
  }
  return codes;
}
