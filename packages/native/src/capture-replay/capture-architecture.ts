import { readModuleImage } from '../capture-module-image.js';
import { smNumber } from '../sm-architecture.js';

/**
 * Why a module captured on `capturedArchitecture` cannot run on a device of `deviceArchitecture`,
 * or null when it can: the same architecture, a cubin built for the device, or PTX the driver can
 * compile (readModuleImage tells).
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
  if (entries.some((entry) => entry.kind === 'ptx')) return null;
  const device = smNumber(deviceArchitecture);
  if (device !== null && entries.some((entry) => entry.kind === 'cubin' && entry.architecture === device)) return null;
  const cubins = [...new Set(entries.map((entry) => `sm_${entry.architecture}`))];
  return `${where}; module ${moduleId} holds ${cubins.length === 0 ? 'no cubin' : `cubins for ${cubins.join(', ')} only`} and no PTX the driver could compile for it`;
}
