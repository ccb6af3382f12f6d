import { defineConfig } from 'vitest/config';
import { gpuTests } from '../../vitest.gpu-tests';

// The replay engine on the cuda driver (test/gpu/). It skips when the driver does not open;
// `test:fake-cuda` runs it on native's CPU stand-in.
export default defineConfig({ test: gpuTests });
