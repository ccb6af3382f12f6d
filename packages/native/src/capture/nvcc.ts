import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The nvcc that the module-image tests compile their fixtures with: `$KREPLAY_NVCC`, `nvcc` on
 * PATH, or /usr/local/cuda/bin/nvcc. Returns the path, or why there is none (the tests then skip).
 * @internal
 */
export function findNvcc(): { readonly path: string } | { readonly missing: string } {
  const candidates = [process.env.KREPLAY_NVCC, 'nvcc', '/usr/local/cuda/bin/nvcc'].filter((candidate): candidate is string => !!candidate);
  for (const candidate of candidates) {
    if (candidate.includes('/') && !existsSync(candidate)) continue;
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (probe.status === 0) return { path: candidate };
  }
  return { missing: `no nvcc found (tried ${candidates.join(', ')}); install the CUDA toolkit or set KREPLAY_NVCC` };
}

/** Runs nvcc; its output on failure becomes the error. @internal */
export function nvcc(path: string, args: readonly string[]): void {
  execFileSync(path, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
