import { nativeMessage } from '../errors/native-message.js';
import { OutOfMemoryError } from '../errors/out-of-memory-error.js';
import type { AgentInfo } from '../runtime/runtime-types.js';

/**
 * The error of a device allocation that failed on agent `agent.id` (`agent.allocate` or
 * `queue.enqueueAllocate`): no free block of `bytes`, or an injected `allocate` fault.
 * @internal
 */
export function deviceOutOfMemory(agent: AgentInfo, bytes: number, availableBytes: number, injected: boolean): OutOfMemoryError {
  return new OutOfMemoryError({
    packageName: 'native',
    component: 'memory',
    agentId: agent.id,
    bytes,
    availableBytes,
    message: nativeMessage(
      'memory',
      injected
        ? `an injected allocate fault refused ${bytes} bytes on agent ${agent.id}`
        : `agent ${agent.id} has no free block of ${bytes} bytes (${availableBytes} of ${agent.deviceMemoryBytes} bytes free)`,
      injected
        ? 'Clear injected faults with runtime.clearFaults()'
        : 'Free memory first, or open the runtime with more device memory (host: deviceMemoryBytes)',
    ),
  });
}
