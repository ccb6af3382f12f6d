/**
 * Whether the hsa driver opens here, decided once when the GPU test files are collected, so they
 * skip cleanly (with the reason) on machines without an AMD GPU.
 */
import { DriverUnavailableError, openRuntime } from '../../src/index.js';

export interface HsaAvailability {
  readonly available: boolean;
  /** Why not, e.g. "/dev/kfd does not exist, ...". */
  readonly reason: string;
  readonly agents: number;
  /** The runtime is the fake ROCr of src/drivers/hsa/test (KREPLAY_HSA_LIBRARY): tests use small sizes. */
  readonly fake: boolean;
}

export async function probeHsaForTests(): Promise<HsaAvailability> {
  try {
    const runtime = await openRuntime({ driver: 'hsa' });
    const agents = runtime.agents.length;
    const fake = runtime.agents[0]?.info.name === 'Fake AMD GPU';
    await runtime.dispose();
    return { available: true, reason: '', agents, fake };
  } catch (error) {
    if (error instanceof DriverUnavailableError) return { available: false, reason: error.reason, agents: 0, fake: false };
    throw error;
  }
}
