/** The C library family of a Linux system; `undefined` elsewhere or when it cannot be told. */
export type LibcFamily = 'glibc' | 'musl';

/** What a prebuilt addon must match to load in this process. */
export interface RunningPlatform {
  /** `process.platform`, e.g. `linux`. */
  readonly platform: string;
  /** `process.arch`, e.g. `x64` or `arm64`. */
  readonly arch: string;
  /** The C library this process runs on (Linux only). */
  readonly libc: LibcFamily | undefined;
  /** The running glibc's version, e.g. `2.36`, when `libc` is `glibc`. */
  readonly glibcVersion: string | undefined;
  /** The highest Node-API version this Node.js offers. */
  readonly napiVersion: number;
}

interface ReportHeader {
  readonly glibcVersionRuntime?: string;
}

interface Report {
  readonly header?: ReportHeader;
  readonly sharedObjects?: readonly string[];
}

let cached: RunningPlatform | undefined;

/**
 * Describes the running process: platform, architecture, C library and Node-API version. On Linux
 * the C library comes from Node's own diagnostic report (`glibcVersionRuntime` is set only under
 * glibc; a musl process maps `ld-musl-*` / `libc.musl-*`).
 * @internal
 */
export function runningPlatform(): RunningPlatform {
  if (cached) return cached;
  let libc: LibcFamily | undefined;
  let glibcVersion: string | undefined;
  if (process.platform === 'linux') {
    const report = linuxReport();
    glibcVersion = report.header?.glibcVersionRuntime;
    if (glibcVersion) libc = 'glibc';
    else if (report.sharedObjects?.some((path) => /(^|\/)(ld-musl-|libc\.musl-)/.test(path))) libc = 'musl';
  }
  cached = {
    platform: process.platform,
    arch: process.arch,
    libc,
    glibcVersion,
    napiVersion: Number(process.versions.napi ?? 0),
  };
  return cached;
}

function linuxReport(): Report {
  try {
    return process.report.getReport() as Report;
  } catch {
    return {};
  }
}
