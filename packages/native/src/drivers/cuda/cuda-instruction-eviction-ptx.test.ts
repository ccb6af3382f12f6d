import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The profiler's instruction-cache eviction kernel: as much straight-line code as asked, which
// ptxas (when CUDA is installed) keeps whole.
const sources = fileURLToPath(new URL('../..', import.meta.url));
const cudaHome = process.env['CUDA_HOME'] ?? '/usr/local/cuda';
const ptxas = join(cudaHome, 'bin', 'ptxas');

function ptxFor(codeBytes: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'kreplay-icache-'));
  const program = join(folder, 'instruction-eviction-ptx');
  const compiler = process.env['CXX'] ?? 'g++';
  execFileSync(compiler, ['-std=c++17', `-I${sources}`, join(sources, 'drivers/cuda/test/instruction-eviction-ptx.cpp'),
    join(sources, 'drivers/cuda/cuda-instruction-eviction-ptx.cpp'), '-o', program], { stdio: 'pipe' });
  return execFileSync(program, [String(codeBytes)], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

describe('instruction eviction PTX', () => {
  it('holds one multiply-add per 16 bytes of code asked, each with its own constant, and a guarded store', () => {
    const ptx = ptxFor(64 << 10);
    const constants = [...ptx.matchAll(/mad\.lo\.u32 %r1, %r1, %r1, (\d+);/g)].map((match) => match[1]);
    expect(constants).toHaveLength(4096);
    expect(new Set(constants).size).toBe(4096);
    expect(ptx).toMatch(/\.visible \.entry kreplay_instruction_eviction\(\.param \.u64 sink\)/);
    expect(ptx).toMatch(/@%p bra DONE;[\s\S]*st\.global\.u32 \[%rd2\], %r1;[\s\S]*DONE:/);
  }, 60_000);

  it.skipIf(!existsSync(ptxas))(`compiles for sm_90 to at least the code asked, nothing folded${existsSync(ptxas) ? '' : ` (no ${ptxas})`}`, () => {
    const folder = mkdtempSync(join(tmpdir(), 'kreplay-icache-ptxas-'));
    writeFileSync(join(folder, 'eviction.ptx'), ptxFor(64 << 10));
    execFileSync(ptxas, ['-arch=sm_90', join(folder, 'eviction.ptx'), '-o', join(folder, 'eviction.cubin')], { stdio: 'pipe' });
    expect(statSync(join(folder, 'eviction.cubin')).size).toBeGreaterThanOrEqual(64 << 10);
  }, 60_000);
});
