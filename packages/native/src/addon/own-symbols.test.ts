import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureLibraryPath } from '../capture/capture-library-path.js';
import { nativeAddonPath } from './load-binding.js';

// kreplay.node and libkreplay-capture.so live in processes they do not own: Node.js, and whatever
// program is captured. Node.js 22 and newer export C++ standard-library code of their own, built
// without exceptions; a shared object that exported its std:: template code would have its calls
// bound to the host's copies, where a std::regex_error aborts the process instead of being thrown.

// The exports as the prebuild's check reads them (objdump -T: defined, not local).
interface PrebuildSymbolsModule {
  readNeeds(file: string): { readonly exported: readonly string[] };
}
const prebuildSymbols = (await import(new URL('../../scripts/prebuild-symbols.mjs', import.meta.url).href)) as PrebuildSymbolsModule;
const exportedSymbols = (file: string): string[] => [...prebuildSymbols.readNeeds(file).exported].sort();

describe('what the addon and the capture library export', () => {
  it('kreplay.node exports its Node-API entry points and nothing else', () => {
    expect(exportedSymbols(nativeAddonPath())).toEqual(['napi_register_module_v1', 'node_api_module_get_api_version_v1']);
  });

  it('libkreplay-capture.so exports InitializeInjection and nothing else', () => {
    expect(exportedSymbols(captureLibraryPath())).toEqual(['InitializeInjection']);
  });

  it("refuses a malformed pattern with std::regex's complaint where the host process has std::regex built without exceptions", () => {
    const directory = mkdtempSync(join(tmpdir(), 'kreplay-own-symbols-'));
    const host = join(directory, 'libregex-without-exceptions.so');
    const source = join(import.meta.dirname, '__fixtures__', 'regex-without-exceptions.cpp');
    execFileSync(process.env['CXX'] ?? 'g++', ['-std=c++17', '-O2', '-fno-exceptions', '-shared', '-fPIC', source, '-o', host], { stdio: 'pipe' });
    const patterns = ['(?<=_)scale', '(?<name>gemm)', '\\p{L}+', '(unclosed'];
    const script = `const addon = require(${JSON.stringify(nativeAddonPath())});
      process.stdout.write(JSON.stringify(${JSON.stringify(patterns)}.map((pattern) => addon.kernelNamePatternProblem(pattern))));`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, LD_PRELOAD: host } });
    expect({ signal: child.signal, status: child.status, stderr: child.stderr }).toEqual({ signal: null, status: 0, stderr: '' });
    const problems = JSON.parse(child.stdout) as string[];
    expect(problems).toHaveLength(patterns.length);
    for (const problem of problems) expect(problem).toMatch(/^C\+\+ std::regex \(ECMAScript grammar\) cannot compile it: /);
  }, 120_000);
});
