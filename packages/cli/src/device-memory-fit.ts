import type { Agent, Runtime } from '@kreplay/native';
import { formatBytes } from '@kreplay/bench';
import { describeByteSize } from './byte-size.js';
import { UsageError } from './usage-error.js';

/** What {@link checkDeviceMemoryFits} checks. */
export interface DeviceMemoryNeed {
  /** The command, e.g. `replay`. */
  readonly command: string;
  /** The option that sets the size, e.g. `--footprint`. */
  readonly flag: string;
  /** How the size reads in the message, e.g. `--footprint 20 GiB`. */
  readonly given: string;
  /** The device bytes each agent needs. */
  readonly bytes: number;
  /** The agents it runs on; default: the first. */
  readonly agents?: readonly Agent[];
}

/** `20GiB`, `100MiB`: a size as --device-memory takes it, rounded up to a whole MiB. */
function deviceMemoryArgument(bytes: number): string {
  return describeByteSize(Math.ceil(bytes / 2 ** 20) * 2 ** 20).replace(' ', '');
}

/**
 * Refuses, before anything is allocated, a workload whose device memory does not fit an agent it
 * runs on. On the host driver the device memory is what `--device-memory` set (1 GiB unless given),
 * so the message says so and how to raise it; on a GPU it names the device and its free memory.
 * @throws {UsageError} when `bytes` exceed an agent's free device memory.
 */
export function checkDeviceMemoryFits(runtime: Runtime, need: DeviceMemoryNeed): void {
  for (const agent of need.agents ?? runtime.agents.slice(0, 1)) {
    const { freeBytes, totalBytes } = agent.memoryInfo();
    if (need.bytes <= freeBytes) continue;
    const free = `${formatBytes(freeBytes)} of it free`;
    if (runtime.driver === 'host') {
      throw new UsageError(
        need.command,
        `${need.given} does not fit the device memory: the host driver gives agent ${agent.id} ${describeByteSize(totalBytes)} (--device-memory${totalBytes === 2 ** 30 ? ', 1 GiB unless given' : ''}), ${free}`,
        `Pass --device-memory ${deviceMemoryArgument(need.bytes)} or more (the host driver's device memory is this machine's memory: agents x --device-memory must fit it), or a smaller ${need.flag}`,
      );
    }
    throw new UsageError(
      need.command,
      `${need.given} does not fit the device memory: agent ${agent.id} (${agent.info.name}) has ${describeByteSize(totalBytes)}, ${free}`,
      `Pass a smaller ${need.flag}`,
    );
  }
}
