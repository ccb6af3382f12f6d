/**
 * PTX text as a module image: what cuModuleLoadData takes besides cubins and fatbins. Its header
 * names the PTX ISA (`.version 8.7`) and the architecture it was written for (`.target sm_90`), and
 * the driver compiles it for that architecture and newer ones; `sm_90a` (architecture-specific
 * features) for sm_90 alone, `sm_100f` (family-specific) for sm_100 and later members of its family.
 * @internal
 */

/** The header of a PTX module. */
export interface PtxHeader {
  /** The PTX ISA version, e.g. `8.7`. */
  readonly version: string;
  /** The target as written, e.g. `sm_90a`. */
  readonly target: string;
  /** Its SM number, e.g. 90. */
  readonly architecture: number;
}

/** Where a PTX module's header must be: the directives come first, after comments. */
const HEADER_BYTES = 64 * 1024;

/**
 * Whether `bytes` are PTX text (they start, after whitespace and comments, with `.version`), and if
 * so its header; `{ problem }` for PTX text whose header is not well formed; null for other bytes.
 */
export function readPtxHeader(bytes: Uint8Array): PtxHeader | { readonly problem: string } | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, HEADER_BYTES));
  const text = head.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  const version = /^\s*\.version\s+(\d+\.\d+)\b/.exec(text);
  if (!version) return null;
  const target = /^\s*\.target\s+([^\n;]+)/.exec(text.slice(version[0].length));
  if (!target) return { problem: `PTX without a .target directive after .version ${version[1]}` };
  const names = target[1]!.split(',').map((name) => name.trim());
  const architecture = names.map((name) => /^(?:sm|compute)_(\d+)[a-z]?$/.exec(name)).find((match) => match !== null);
  if (!architecture) return { problem: `PTX whose .target ${target[1]!.trim()} names no architecture (sm_XX)` };
  return { version: version[1]!, target: architecture[0], architecture: Number(architecture[1]) };
}

/**
 * Whether the driver compiles PTX of `target` (e.g. `sm_90`, `sm_90a`, `compute_80`) for a device
 * of SM number `device`, and if not, for which architectures it does (`sm_100 and newer
 * architectures only`, `sm_90 alone`).
 */
export function ptxTargetFits(target: string, device: number): { readonly fits: boolean; readonly compilesFor: string } {
  const match = /^(?:sm|compute)_(\d+)([a-z]?)$/.exec(target);
  if (!match) return { fits: false, compilesFor: `the architecture of ${target}` };
  const architecture = Number(match[1]);
  if (match[2] === 'a') return { fits: device === architecture, compilesFor: `sm_${architecture} alone` };
  if (match[2] === 'f') {
    const family = Math.floor(architecture / 10);
    return { fits: Math.floor(device / 10) === family && device >= architecture, compilesFor: `sm_${architecture} and the later members of its family only` };
  }
  return { fits: device >= architecture, compilesFor: `sm_${architecture} and newer architectures only` };
}
