import { KernelGraph, type KernelArguments, type KernelDescriptor, type Runtime } from '@kreplay/native';
import { mergeResolutions, type ArgumentResolution, type Tracker } from '@kreplay/tracker';
import { destinationsResolution } from './before-copies.js';
import type { GraphDispatchRequest } from './dispatch-request.js';
import { describeValue, hasMethods, replayArgumentError } from './validate.js';

/** A graph launch as the engine dispatches it: one unit with a name, and what its steps reach. */
export interface GraphUnit {
  /** A descriptor naming the graph (its kernels), for results and notes. */
  readonly kernel: KernelDescriptor;
  readonly args: KernelArguments;
  /** The merge of every step's resolution: kernels' arguments, memsets' and copies' destinations. */
  readonly resolution: ArgumentResolution;
  /** Each kernel step, with its own resolution (the strategy's `dispatches`). */
  readonly dispatches: readonly { readonly kernel: KernelDescriptor; readonly args: KernelArguments; readonly resolution: ArgumentResolution }[];
}

const noArguments: KernelArguments = Object.freeze({});
const noParameters: KernelDescriptor = Object.freeze({ name: 'graph', parameters: Object.freeze([]), deterministic: true });

/** The parameter name a graph's memsets and copies reach their destinations through, in resolutions and reasons. */
export const graphStepParameter = 'graph-step';

/**
 * Checks a graph request at the engine's boundary.
 * @throws {ArgumentError} naming the first field that is missing or invalid.
 */
export function validateGraphRequest(request: GraphDispatchRequest, runtime: Runtime): void {
  const { queue, graph, crossDevice } = request;
  if (!hasMethods(queue, ['enqueueGraph', 'recordEvent', 'synchronize']) || typeof queue.agent !== 'object') {
    throw invalid('queue', `queue is ${describeValue(queue)}, not a Queue`, 'Pass a queue made by agent.createQueue()');
  }
  if (queue.agent.runtime !== runtime) {
    throw invalid('queue', `queue ${queue.id} belongs to another runtime than the engine's`, "Dispatch on a queue of the engine's runtime, or create an engine for that runtime");
  }
  if (!(graph instanceof KernelGraph)) throw invalid('graph', `graph is ${describeValue(graph)}, not a KernelGraph`, 'Pass a graph made by agent.createGraph(), or graph: true for a graph launch to run once');
  if (graph.agent !== queue.agent) {
    throw invalid('graph', `the graph belongs to agent ${graph.agent.id}, not the queue's agent ${queue.agent.id}`, "Dispatch the graph on a queue of its own agent");
  }
  if (graph.disposed) throw invalid('graph', 'the graph was disposed', 'Create it again with agent.createGraph()');
  if (crossDevice !== undefined && typeof crossDevice !== 'boolean') {
    throw invalid('crossDevice', `crossDevice is ${describeValue(crossDevice)}, not a boolean`, 'Pass true, false, or leave crossDevice out');
  }
}

/**
 * A graph launch as one unit: its name, and its steps resolved through the tracker (what each
 * kernel's arguments reach; what each memset and copy writes).
 * @throws {ArgumentError} when the tracker refuses a kernel step's arguments.
 */
export function graphUnit(tracker: Tracker, graph: KernelGraph): GraphUnit;
/** Only the graph's name (`kernel`), without resolving anything. */
export function graphUnit(tracker: undefined, graph: KernelGraph): Pick<GraphUnit, 'kernel'>;
export function graphUnit(tracker: Tracker | undefined, graph: KernelGraph): GraphUnit | Pick<GraphUnit, 'kernel'> {
  if (tracker === undefined) return { kernel: graphKernel(graph) };
  const agentId = graph.agent.id;
  const dispatches: GraphUnit['dispatches'][number][] = [];
  const writes: { source: number; destination: number; bytes: number }[] = [];
  for (const step of graph.steps) {
    if (step.kind === 'kernel') dispatches.push({ kernel: step.kernel, args: step.args, resolution: tracker.resolveArguments(agentId, step.kernel, step.args) });
    else if (step.kind === 'memset') writes.push({ source: step.address, destination: step.address, bytes: step.bytes });
    else writes.push(step);
  }
  const parts = dispatches.map((dispatch) => dispatch.resolution);
  if (writes.length > 0) parts.push(destinationsResolution(tracker, agentId, writes, graphStepParameter, 'a memset or copy of the graph'));
  if (parts.length === 0) parts.push(tracker.resolveArguments(agentId, noParameters, noArguments));
  return { kernel: graphKernel(graph), args: noArguments, resolution: mergeResolutions(parts), dispatches };
}

/** A descriptor naming a graph by its kernels: `graph (a, b, ... 12 steps)`. */
function graphKernel(graph: KernelGraph): KernelDescriptor {
  const kernels = graph.steps.flatMap((step) => (step.kind === 'kernel' ? [step.kernel] : []));
  const names = kernels.map((kernel) => kernel.name);
  const shown = names.length > 4 ? `${names.slice(0, 4).join(', ')}, ...` : names.join(', ');
  return {
    name: `graph (${shown}${shown.length > 0 ? '; ' : ''}${graph.steps.length} steps)`,
    deterministic: kernels.every((kernel) => kernel.deterministic !== false),
    parameters: [],
  };
}

function invalid(argument: string, what: string, fix: string) {
  return replayArgumentError('dispatch', argument, what, fix);
}
