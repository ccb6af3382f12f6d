import type { Runtime } from '@kreplay/native';
import type { DispatchRequest } from './dispatch-request.js';
import { describeValue, hasMethods, replayArgumentError } from './validate.js';

/**
 * Checks a dispatch request at the engine's boundary (the arguments themselves are checked by the
 * tracker when it resolves them).
 * @throws {ArgumentError} naming the first field that is missing or invalid.
 */
export function validateRequest(request: DispatchRequest, runtime: Runtime): void {
  if (typeof request !== 'object' || request === null) {
    throw invalid('request', `the request is ${describeValue(request)}, not an object`, 'Pass { queue, kernel, args }');
  }
  const { queue, kernel, args, crossDevice, graph } = request;
  if (!hasMethods(queue, ['enqueueKernel', 'recordEvent', 'synchronize']) || typeof queue.agent !== 'object') {
    throw invalid('queue', `queue is ${describeValue(queue)}, not a Queue`, 'Pass a queue made by agent.createQueue()');
  }
  if (queue.agent.runtime !== runtime) {
    throw invalid('queue', `queue ${queue.id} belongs to another runtime than the engine's`, "Dispatch on a queue of the engine's runtime, or create an engine for that runtime");
  }
  if (typeof kernel !== 'object' || kernel === null || typeof kernel.name !== 'string' || !Array.isArray(kernel.parameters)) {
    throw invalid('kernel', `kernel is ${describeValue(kernel)}, not a kernel descriptor`, 'Pass a KernelDescriptor such as runtime.kernels.fill');
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw invalid('args', `the arguments of kernel ${kernel.name} are ${describeValue(args)}, not an object`, 'Pass the launch arguments by parameter name');
  }
  for (const [name, flag] of [['crossDevice', crossDevice], ['graph', graph]] as const) {
    if (flag !== undefined && typeof flag !== 'boolean') {
      throw invalid(name, `${name} is ${describeValue(flag)}, not a boolean`, `Pass true, false, or leave ${name} out`);
    }
  }
}

function invalid(argument: string, what: string, fix: string) {
  return replayArgumentError('dispatch', argument, what, fix);
}
