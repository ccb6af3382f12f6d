import { defineConfig } from 'vitest/config';
import { gpuTests } from '../../vitest.gpu-tests';

// The strategy kit on the GPU drivers (test/gpu/). A driver that does not open is skipped;
// `test:fake-cuda` and `test:fake-hsa` run it on native's CPU stand-ins.
export default defineConfig({ test: gpuTests });
