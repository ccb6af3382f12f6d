import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findNvcc, nvcc } from '../capture/nvcc.js';
import { launchBufferProblem, moduleParameterLayouts, parameterBufferProblem } from './kernel-parameter-layout.js';
import { ptxParameterLayouts } from './ptx-entry-parameters.js';

const committed = (path: string) => readFileSync(new URL(path, import.meta.url), 'latin1');

describe('ptxParameterLayouts', () => {
  it('lays out the committed PTX kernels as the C ABI does', () => {
    expect(ptxParameterLayouts(committed('../../test/gpu/kernels/capture-fixture-axpy.ptx')).get('kreplay_capture_fixture_axpy')).toEqual({
      parameters: [
        { index: 0, offset: 0, size: 8 },
        { index: 1, offset: 8, size: 8 },
        { index: 2, offset: 16, size: 4 },
        { index: 3, offset: 20, size: 4 },
      ],
      parameterBufferBytes: 24,
    });
    expect(ptxParameterLayouts(committed('../../test/gpu/kernels/scale-floats.ptx')).get('kreplay_test_scale_floats')?.parameterBufferBytes).toBe(16);
    // Every kernel of the built-in module: as many layouts as the text has entries.
    const builtIn = committed('../kernels-cuda/ptx/kreplay-kernels.compute_90.ptx');
    expect(ptxParameterLayouts(builtIn).size).toBe(builtIn.match(/\.entry\s/g)?.length);
    expect(ptxParameterLayouts(builtIn).size).toBeGreaterThan(20);
  });

  it('reads aligned byte arrays, pointer qualifiers and kernels without parameters; skips comments and what it does not know', () => {
    const layouts = ptxParameterLayouts(`
      // .visible .entry commented_out(.param .u64 a)
      .visible .entry padded(
        .param .u8 padded_param_0, /* a char */
        .param .align 8 .b8 padded_param_1[24],
        .param .u64 .ptr .global .align 16 padded_param_2
      )
      .maxntid 256, 1, 1
      { ret; }
      .entry none() { ret; }
      .entry bare { ret; }
      .entry opaque(.param .texref opaque_param_0) { ret; }
    `);
    expect(layouts.get('padded')).toEqual({
      parameters: [
        { index: 0, offset: 0, size: 1 },
        { index: 1, offset: 8, size: 24 },
        { index: 2, offset: 32, size: 8 },
      ],
      parameterBufferBytes: 40,
    });
    expect(layouts.get('none')).toEqual({ parameters: [], parameterBufferBytes: 0 });
    expect(layouts.get('bare')).toEqual({ parameters: [], parameterBufferBytes: 0 });
    expect(layouts.has('opaque')).toBe(false);
    expect(layouts.has('commented_out')).toBe(false);
  });

  it('takes time linear in the text, however it is damaged (unclosed lists and comments)', () => {
    // Quadratic scans would take minutes over these.
    expect(ptxParameterLayouts('.entry a('.repeat(200_000)).size).toBe(0);
    expect(ptxParameterLayouts('/* .entry a('.repeat(200_000)).size).toBe(0);
  });
});

describe('parameterBufferProblem', () => {
  it('names the kernel, the buffer size and what the module declares when the buffer is short', () => {
    const layout = ptxParameterLayouts(committed('../../test/gpu/kernels/capture-fixture-axpy.ptx')).get('kreplay_capture_fixture_axpy')!;
    expect(parameterBufferProblem('kreplay_capture_fixture_axpy', 24, layout)).toBeNull();
    expect(parameterBufferProblem('kreplay_capture_fixture_axpy', 0, layout)).toBe(
      'holds 0 bytes, but its module declares 4 parameters of kernel kreplay_capture_fixture_axpy in 24 bytes (the last ending at byte 24)',
    );
  });
});

describe('launchBufferProblem', () => {
  it('refuses a buffer shorter than the parameters, and one longer than where the last ends (padding after it included), as CUDA does', () => {
    // a, b, sums (8 bytes each) and n (4 bytes): the parameters end at byte 28, not at 32.
    const layout = ptxParameterLayouts(committed('../../test/gpu/kernels/capture-fixture-block-sums.ptx')).get('kreplay_capture_fixture_block_sums')!;
    expect(launchBufferProblem('kreplay_capture_fixture_block_sums', 28, layout)).toBeNull();
    expect(launchBufferProblem('kreplay_capture_fixture_block_sums', 24, layout)).toBe(parameterBufferProblem('kreplay_capture_fixture_block_sums', 24, layout));
    expect(launchBufferProblem('kreplay_capture_fixture_block_sums', 32, layout)).toBe(
      'holds 32 bytes, more than the 28 bytes where the last parameter of kernel kreplay_capture_fixture_block_sums ends in its module; CUDA refuses a longer buffer (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)',
    );
  });
});

// The PTX reader against the cubin's metadata (readModuleImage) for the same source, when nvcc is there.
const found = findNvcc();
describe.skipIf('missing' in found)('moduleParameterLayouts of PTX and of the cubin nvcc builds from one source', () => {
  it('agree on every kernel of __fixtures__/parameters.cu', () => {
    const directory = mkdtempSync(join(tmpdir(), 'kreplay-ptx-layout-'));
    try {
      const source = fileURLToPath(new URL('../capture/__fixtures__/parameters.cu', import.meta.url));
      const nvccPath = (found as { path: string }).path;
      nvcc(nvccPath, ['-ptx', '-arch=compute_90', '-o', join(directory, 'parameters.ptx'), '--extended-lambda', source]);
      nvcc(nvccPath, ['-cubin', '-arch=sm_90', '-o', join(directory, 'parameters.cubin'), '--extended-lambda', source]);
      const fromPtx = moduleParameterLayouts(readFileSync(join(directory, 'parameters.ptx')));
      const fromCubin = moduleParameterLayouts(readFileSync(join(directory, 'parameters.cubin')));
      expect(fromCubin.size).toBeGreaterThan(0);
      for (const [name, layout] of fromCubin) expect(fromPtx.get(name), name).toEqual({ parameters: [...layout.parameters], parameterBufferBytes: layout.parameterBufferBytes });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
