import { defineConfig } from 'vitest/config';
import { gpuTests } from '../../vitest.gpu-tests';

// The GPU tests (test/gpu/). They skip when no CUDA device (or ROCr) is found.
export default defineConfig({ test: gpuTests });
