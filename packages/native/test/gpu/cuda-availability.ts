/**
 * Whether the cuda driver opens here, decided once when the GPU test files are collected, so they
 * skip cleanly (with the reason) on machines without a CUDA device.
 */
import { DriverUnavailableError, openRuntime } from '../../src/index.js';

export interface CudaAvailability {
  readonly available: boolean;
  /** Why not, e.g. "libcuda.so.1 was not found". */
  readonly reason: string;
  readonly agents: number;
  /** The device is test/fake-cuda's CPU stand-in: tests use small sizes. */
  readonly fake: boolean;
}

export async function probeCudaForTests(): Promise<CudaAvailability> {
  try {
    const runtime = await openRuntime({ driver: 'cuda' });
    const agents = runtime.agents.length;
    const fake = runtime.agents[0]?.info.name.startsWith('Fake CUDA device') ?? false;
    await runtime.dispose();
    return { available: true, reason: '', agents, fake };
  } catch (error) {
    if (error instanceof DriverUnavailableError) return { available: false, reason: error.reason, agents: 0, fake: false };
    throw error;
  }
}
