import { readModuleImage } from '../capture/capture-module-image.js';
import type { ModuleImageEntry } from '../capture/module-image-types.js';
import { ptxTargetFits } from '../kernels/ptx-module.js';
import { smNumber } from '../kernels/sm-architecture.js';

/** How an entry of PTX names its target: `.target sm_90a (PTX ISA 8.7)` for PTX text, `compute_90` in a fatbin. */
function describePtx(entry: ModuleImageEntry): string {
  return entry.target === undefined ? `compute_${entry.architecture}` : `.target ${entry.target}${entry.ptxVersion === undefined ? '' : ` (PTX ISA ${entry.ptxVersion})`}`;
}

/**
 * Why a module captured on `capturedArchitecture` cannot run on a device of `deviceArchitecture`,
 * or null when it can: the same architecture, a cubin built for the device, or PTX the driver can
 * compile for it (of the device's architecture or an older one; readModuleImage tells).
 * @internal
 */
export function architectureProblem(capturedArchitecture: string, deviceArchitecture: string, image: Uint8Array, moduleId: string): string | null {
  if (capturedArchitecture === deviceArchitecture) return null;
  const where = `the capture was taken on ${capturedArchitecture} and this device is ${deviceArchitecture}`;
  let entries;
  try {
    entries = readModuleImage(image).entries;
  } catch (error) {
    return `${where}, and module ${moduleId} cannot be read to look for code this device runs (${(error as Error).message})`;
  }
  const device = smNumber(deviceArchitecture);
  const ptx = entries.filter((entry) => entry.kind === 'ptx');
  // A device whose architecture is no sm_XX cannot be judged: the driver decides.
  if (device === null && ptx.length > 0) return null;
  if (device !== null && entries.some((entry) => entry.kind === 'cubin' && entry.architecture === device)) return null;
  const fits = ptx.map((entry) => ({ entry, ...ptxTargetFits(entry.target ?? `compute_${entry.architecture}`, device ?? 0) }));
  if (fits.some((fit) => fit.fits)) return null;
  if (fits.length === 1 && entries.length === 1) {
    const [{ entry, compilesFor }] = fits as [(typeof fits)[number]];
    return `${where}; module ${moduleId} is PTX for ${describePtx(entry)}, which the driver compiles for ${compilesFor}, not for ${deviceArchitecture}`;
  }
  const cubins = [...new Set(entries.filter((entry) => entry.kind === 'cubin').map((entry) => `sm_${entry.architecture}`))];
  const held = cubins.length === 0 ? 'no cubin' : `cubins for ${cubins.join(', ')} only`;
  const ptxText = fits.length === 0 ? 'no PTX the driver could compile for it' : `PTX for ${fits.map((fit) => describePtx(fit.entry)).join(', ')}, which the driver does not compile for ${deviceArchitecture}`;
  return `${where}; module ${moduleId} holds ${held} and ${ptxText}`;
}
