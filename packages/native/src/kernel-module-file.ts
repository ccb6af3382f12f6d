import { resolve } from 'node:path';
import { readRegularFile } from './file-input/read-regular-file.js';
import type { RegularFileRead } from './file-input/read-regular-file.js';

/** The largest module file (PTX, cubin or fatbin) {@link readKernelModuleFile} reads: 1 GiB. */
export const kernelModuleMaxBytes = 2 ** 30;

/**
 * Reads a kernel module file (PTX, a cubin or a fatbin), as `runtime.loadKernel({ path })` and
 * `kreplay profile ptx:<file>:<kernel>` do: a regular file of at most {@link kernelModuleMaxBytes}
 * (a symbolic link is followed). A directory, a FIFO, a device or a larger file is refused without
 * reading from it.
 * @returns its bytes, or why it was refused, as a phrase that follows the path (`is a FIFO, not a regular file`).
 */
export function readKernelModuleFile(path: string): Promise<RegularFileRead> {
  return readRegularFile(resolve(path), { maxBytes: kernelModuleMaxBytes, followSymlinks: true });
}
