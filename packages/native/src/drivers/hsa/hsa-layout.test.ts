import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinKernels } from '../../kernels/builtin-kernels.js';
import type { KernelParameter } from '../../runtime/runtime-types.js';

// The hsa driver's logic that needs no GPU (AQL packets, ring submission, signals, kernargs, code
// object metadata, operation plans run through a CPU emulation of the AMDGPU kernels) is tested by a
// C++ program that the addon build makes (build/tests; CMake option KREPLAY_BUILD_TESTS). Each of its
// cases becomes a test here. They are skipped only when the program was not built.
const program = fileURLToPath(new URL('../../../build/tests/kreplay-hsa-layout-test', import.meta.url));
const built = existsSync(program);

interface CaseResult {
  readonly status: 'ok' | 'skip' | 'not ok';
  readonly name: string;
  readonly detail: string;
}

interface ArgumentMetadata {
  readonly name: string;
  readonly size: number;
  readonly valueKind: string;
  readonly isConst: boolean;
}

interface CodeObjectJson {
  readonly processor: string;
  readonly codeObjectVersion: number;
  readonly kernels: readonly { readonly name: string; readonly arguments: readonly ArgumentMetadata[] }[];
}

function runCases(): { readonly exitCode: number | null; readonly output: string; readonly cases: CaseResult[] } {
  const result = spawnSync(program, [], { encoding: 'utf8', timeout: 120_000 });
  const cases: CaseResult[] = [];
  for (const line of result.stdout.split('\n')) {
    const [status, name, detail] = line.split('\t');
    if ((status === 'ok' || status === 'skip' || status === 'not ok') && name) cases.push({ status, name, detail: detail ?? '' });
  }
  return { exitCode: result.status, output: `${result.stdout}${result.stderr}`, cases };
}

function dumpMetadata(processor: string): CodeObjectJson {
  const result = spawnSync(program, ['--dump-metadata', processor], { encoding: 'utf8' });
  expect(result.status, result.stdout + result.stderr).toBe(0);
  return JSON.parse(result.stdout) as CodeObjectJson;
}

/** page_bytes -> pageBytes: the kernels are OpenCL C, the descriptors TypeScript. */
function camelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** What a declared parameter becomes in the code object's metadata. */
function expectedArgument(parameter: KernelParameter): Omit<ArgumentMetadata, 'name'> & { readonly name: string } {
  const pointer = parameter.type === 'pointer';
  return {
    name: parameter.name,
    size: parameter.type === 'u32' || parameter.type === 'f32' ? 4 : 8,
    valueKind: pointer ? 'global_buffer' : 'by_value',
    isConst: pointer && parameter.access === 'read',
  };
}

/** The GPU kernel of each built-in kernel, and the scratch parameters the driver adds after the declared ones. */
const deviceKernels: Record<keyof typeof builtinKernels, { readonly kernel: string; readonly added: readonly string[] }> = {
  fill: { kernel: 'kreplay_fill', added: [] },
  scatterWrite: { kernel: 'kreplay_scatter_write', added: [] },
  triad: { kernel: 'kreplay_triad', added: [] },
  stencil: { kernel: 'kreplay_stencil', added: ['edges'] },
  accumulate: { kernel: 'kreplay_accumulate', added: ['rotation'] },
};

describe.skipIf(!built)('hsa driver: C++ layout tests', () => {
  const run = built ? runCases() : { exitCode: 0, output: '', cases: [] };

  it('the test program ran every case', () => {
    expect(run.cases.length, run.output).toBeGreaterThan(40);
    expect(run.exitCode, run.output).toBe(run.cases.some((entry) => entry.status === 'not ok') ? 1 : 0);
  });

  for (const entry of run.cases) {
    it(entry.name, (context) => {
      if (entry.status === 'skip') context.skip(entry.detail);
      expect(entry.status, entry.detail).toBe('ok');
    });
  }
});

describe.skipIf(!built)('hsa driver: the committed code objects match the built-in kernel descriptors', () => {
  for (const processor of ['gfx90a', 'gfx942', 'gfx1100']) {
    it(`${processor}: each built-in kernel's arguments are its declared parameters, in order`, () => {
      const metadata = dumpMetadata(processor);
      expect(metadata.processor).toBe(processor);
      expect(metadata.codeObjectVersion).toBe(5);
      for (const [builtin, descriptor] of Object.entries(builtinKernels) as [keyof typeof builtinKernels, (typeof builtinKernels)[keyof typeof builtinKernels]][]) {
        const { kernel, added } = deviceKernels[builtin];
        const found = metadata.kernels.find((candidate) => candidate.name === kernel);
        expect(found, `${kernel} is in the ${processor} code object`).toBeDefined();
        const actual = found!.arguments.map((argument) => ({ ...argument, name: camelCase(argument.name) }));
        const declared = actual.slice(0, descriptor.parameters.length).map(({ name, size, valueKind, isConst }) => ({ name, size, valueKind, isConst }));
        expect(declared, `${builtin} -> ${kernel}`).toEqual(descriptor.parameters.map(expectedArgument));
        expect(actual.slice(descriptor.parameters.length).map((argument) => argument.name)).toEqual(added);
      }
    });
  }
});
