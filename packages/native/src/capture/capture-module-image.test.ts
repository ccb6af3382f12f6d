import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNvcc, nvcc } from './nvcc.js';
import { readModuleImage } from './capture-module-image.js';
import type { ModuleCubin, ModuleKernel } from './module-image-types.js';
import { ArgumentError } from '../errors/argument-error.js';

// The reader on cubins and fatbins that nvcc builds from __fixtures__/parameters.cu at test time.
// The expected layouts follow from the source by the C ABI: each parameter at the next multiple of
// its alignment, the buffer padded to nothing more (CUDA packs the parameters in that order).
const source = fileURLToPath(new URL('./__fixtures__/parameters.cu', import.meta.url));
const found = findNvcc();

/** [size, alignment] of each parameter, as the source declares them. */
const signatures: Record<string, readonly (readonly [number, number])[]> = {
  scalars: [[1, 1], [2, 2], [4, 4], [8, 8], [4, 4], [8, 8], [8, 8]],
  pointers: [[8, 8], [8, 8], [4, 4]],
  // struct Padded { char; double; short; }: 24 bytes aligned to 8, then an int and a pointer.
  padded_struct: [[24, 8], [4, 4], [8, 8]],
  many_parameters: [...Array.from({ length: 20 }, () => [4, 4] as const), [8, 8]],
  // apply<closure>(int n, closure): the lambda captures float*, float, const float* (24 bytes, align 8).
  apply: [[4, 4], [24, 8]],
};

function expectedLayout(signature: readonly (readonly [number, number])[]) {
  let end = 0;
  const parameters = signature.map(([size, alignment], index) => {
    const offset = Math.ceil(end / alignment) * alignment;
    end = offset + size;
    return { index, offset, size };
  });
  return { parameters, parameterBufferBytes: end };
}

function kernelNamed(cubin: ModuleCubin, name: string): ModuleKernel {
  const kernel = cubin.kernels.find((candidate) => candidate.name === name || (name === 'apply' && candidate.name.startsWith('_Z5applyI')));
  expect(kernel, `${name} among ${cubin.kernels.map((candidate) => candidate.name).join(', ')}`).toBeDefined();
  return kernel!;
}

function expectFixtureCubin(cubin: ModuleCubin, architecture: number): void {
  expect(cubin.architecture).toBe(architecture);
  expect(cubin.kernels).toHaveLength(Object.keys(signatures).length);
  for (const [name, signature] of Object.entries(signatures)) {
    const kernel = kernelNamed(cubin, name);
    expect({ parameters: kernel.parameters, parameterBufferBytes: kernel.parameterBufferBytes }, name).toEqual(expectedLayout(signature));
    expect(kernel.registers, name).toBeGreaterThan(0);
  }
  const globals = Object.fromEntries(cubin.globals.map((global) => [global.name, global]));
  expect(Object.keys(globals).sort()).toEqual(['constantCoefficients', 'deviceCounter', 'deviceInitialized', 'deviceTable']);
  expect(globals.deviceCounter).toMatchObject({ constant: false, size: 4 });
  expect(globals.deviceCounter!.section).toMatch(/^\.nv\.global/);
  expect(globals.deviceTable).toMatchObject({ constant: false, size: 400 });
  // An initialized __device__ variable has its bytes in the image.
  expect(globals.deviceInitialized).toMatchObject({ constant: false, size: 8, section: '.nv.global.init' });
  expect(globals.constantCoefficients).toMatchObject({ constant: true, size: 128 });
  expect(globals.constantCoefficients!.section).toMatch(/^\.nv\.constant[1-9]/);
}

describe.skipIf('missing' in found)('readModuleImage on nvcc output', () => {
  const nvccPath = 'path' in found ? found.path : '';
  let folder = '';
  const file = (name: string) => readFileSync(join(folder, name));

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'kreplay-module-image-'));
    const common = ['--extended-lambda', source];
    for (const architecture of [80, 90]) nvcc(nvccPath, ['-cubin', `-arch=sm_${architecture}`, '-o', join(folder, `sm_${architecture}.cubin`), ...common]);
    const both = ['-gencode', 'arch=compute_80,code=sm_80', '-gencode', 'arch=compute_90,code=[sm_90,compute_90]'];
    nvcc(nvccPath, ['-fatbin', ...both, '-o', join(folder, 'two.fatbin'), ...common]);
    nvcc(nvccPath, ['-fatbin', '-Xfatbin', '-compress-all', ...both, '-o', join(folder, 'compressed.fatbin'), ...common]);
    nvcc(nvccPath, ['-fatbin', '--compress-mode=speed', '-Xfatbin', '-compress-all', ...both, '-o', join(folder, 'lz4.fatbin'), ...common]);
  }, 180_000);
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('a cubin: every kernel with the parameter layout its signature implies, and the globals', () => {
    for (const architecture of [80, 90]) {
      const image = readModuleImage(file(`sm_${architecture}.cubin`));
      expect(image.fatbin).toBe(false);
      expect(image.hasPtx).toBe(false);
      expect(image.entries).toHaveLength(1);
      expectFixtureCubin(image.entries[0]!.cubin!, architecture);
    }
  });

  it('a fatbin of sm_80 and sm_90 plus compute_90 PTX: each cubin as when built alone', () => {
    const image = readModuleImage(file('two.fatbin'));
    expect(image.fatbin).toBe(true);
    expect(image.hasPtx).toBe(true);
    expect(image.entries.map(({ kind, architecture }) => ({ kind, architecture }))).toEqual([
      { kind: 'cubin', architecture: 80 },
      { kind: 'cubin', architecture: 90 },
      { kind: 'ptx', architecture: 90 },
    ]);
    for (const entry of image.entries.filter((candidate) => candidate.kind === 'cubin')) {
      expect(entry.compression).toBe('none');
      expectFixtureCubin(entry.cubin!, entry.architecture);
      expect(entry.cubin).toEqual(readModuleImage(file(`sm_${entry.architecture}.cubin`)).entries[0]!.cubin);
      const payload = file('two.fatbin').subarray(entry.offset, entry.offset + entry.bytes);
      expect(payload.equals(file(`sm_${entry.architecture}.cubin`))).toBe(true);
    }
  });

  it('an LZ4-compressed fatbin (--compress-mode=speed): each cubin decoded and as when built alone', () => {
    const image = readModuleImage(file('lz4.fatbin'));
    const cubins = image.entries.filter((entry) => entry.kind === 'cubin');
    expect(cubins.map((entry) => entry.architecture)).toEqual([80, 90]);
    for (const entry of cubins) {
      expect(entry.compression).toBe('lz4');
      expect(entry.cubin).toEqual(readModuleImage(file(`sm_${entry.architecture}.cubin`)).entries[0]!.cubin);
    }
  });

  it('a zstd-compressed fatbin (the default mode): the entries are listed with their compression, not described', () => {
    const image = readModuleImage(file('compressed.fatbin'));
    expect(image.hasPtx).toBe(true);
    for (const entry of image.entries) {
      expect(entry.compression, `${entry.kind} ${entry.architecture}`).toBe('zstd');
      expect(entry.cubin).toBeNull();
    }
  });

  it('agrees with readelf on the kernels (entry functions), their code sizes, and the globals with their sizes', (context) => {
    const dump = spawnSync('readelf', ['-s', '-W', join(folder, 'sm_90.cubin')], { encoding: 'utf8' });
    if (dump.status !== 0) context.skip(`readelf did not run (${dump.error?.message ?? dump.stderr})`);
    const symbols = dump.stdout.split('\n').map((line) => line.trim().split(/\s+/));
    // Num: Value Size Type Bind Vis [<other>: 10] Ndx Name; an entry function has st_other 0x10.
    const kernels = symbols.filter((fields) => fields[3] === 'FUNC' && fields.slice(6, 8).join(' ') === '[<other>: 10]').map((fields) => fields.at(-1));
    const globals = symbols.filter((fields) => fields[3] === 'OBJECT' && fields[6] !== 'UND').map((fields) => ({ name: fields.at(-1), size: Number(fields[2]) }));
    const cubin = readModuleImage(file('sm_90.cubin')).entries[0]!.cubin!;
    expect(cubin.kernels.map((kernel) => kernel.name).sort()).toEqual(kernels.sort());
    expect(cubin.globals.map(({ name, size }) => ({ name, size }))).toEqual(globals);
    // [Nr] Name Type Address Off Size ...: each kernel's code is its .text.<name> section.
    const sections = spawnSync('readelf', ['-S', '-W', join(folder, 'sm_90.cubin')], { encoding: 'utf8' }).stdout;
    const textBytes = Object.fromEntries(
      sections
        .split('\n')
        .map((line) => line.replace(/^\s*\[\s*\d+\]\s*/, '').split(/\s+/))
        .filter((fields) => fields[0]?.startsWith('.text.'))
        .map((fields) => [fields[0]!.slice('.text.'.length), Number.parseInt(fields[4]!, 16)]),
    );
    for (const kernel of cubin.kernels) {
      expect(kernel.codeBytes, kernel.name).toBe(textBytes[kernel.name]);
      expect(kernel.codeBytes, kernel.name).toBeGreaterThan(0);
    }
  });

  it('the description is frozen all the way down', () => {
    const image = readModuleImage(file('sm_90.cubin'));
    expect(Object.isFrozen(image)).toBe(true);
    expect(Object.isFrozen(image.entries[0]!.cubin!.kernels[0]!.parameters[0])).toBe(true);
  });

  it('a truncated cubin or fatbin is an ArgumentError saying what runs past the end', () => {
    for (const name of ['sm_90.cubin', 'two.fatbin']) {
      const bytes = file(name);
      for (const size of [10, 64, Math.floor(bytes.length / 2), bytes.length - 1]) {
        let thrown: unknown;
        try {
          readModuleImage(bytes.subarray(0, size));
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${name} cut to ${size}`).toBeInstanceOf(ArgumentError);
        expect((thrown as Error).message).toMatch(/^\[native\] \[capture\] the module image is malformed: .*truncated image/);
      }
    }
  });
});

describe('readModuleImage without a CUDA toolkit', () => {
  it('rejects what is not a Uint8Array, and bytes that are no module image', () => {
    expect(() => readModuleImage('cubin' as unknown as Uint8Array)).toThrow(ArgumentError);
    expect(() => readModuleImage(new TextEncoder().encode('not a module'))).toThrow(/not a module image: neither an ELF cubin/);
  });

  it('describes PTX text as PTX with its target and ISA version, never as malformed', () => {
    const ptx = (head: string) => new TextEncoder().encode(`//\n// Generated by NVIDIA NVVM Compiler\n//\n\n${head}\n.address_size 64\n\n.visible .entry k()\n{\n\tret;\n}\n\u0000`);
    const image = readModuleImage(ptx('.version 8.7\n.target sm_100'));
    expect(image).toEqual({
      fatbin: false,
      entries: [{ kind: 'ptx', architecture: 100, target: 'sm_100', ptxVersion: '8.7', compression: 'none', offset: 0, bytes: image.entries[0]!.bytes, cubin: null }],
      hasPtx: true,
    });
    expect(readModuleImage(ptx('/* a block\n comment */ .version 7.8 .target sm_90a, debug')).entries[0]).toMatchObject({ architecture: 90, target: 'sm_90a', ptxVersion: '7.8' });
    expect(readModuleImage(ptx('.version 6.0\n.target compute_70')).entries[0]).toMatchObject({ architecture: 70, target: 'compute_70' });
    // PTX that names no target is not well formed.
    expect(() => readModuleImage(ptx('.version 8.0'))).toThrow(/the module image is malformed: PTX without a \.target directive/);
  });
});
