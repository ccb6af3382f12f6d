import { InvalidArgumentError } from 'commander';
import type { CaptureGraphNode, CaptureLaunch } from '@kreplay/native';

/**
 * `--graph-profiling`, as ncu's: `node` (the default) profiles or replays each kernel node of a
 * captured graph launch as its own result; `graph` the whole graph launch as one workload, one
 * result per captured graph launch.
 */
export type GraphProfiling = 'node' | 'graph';

/** The default `--graph-profiling`, as ncu's. */
export const defaultGraphProfiling: GraphProfiling = 'node';

/** What `--help` says of `--graph-profiling`. */
export const graphProfilingHelp =
  'kernels captured inside CUDA graph launches, as ncu: node (each kernel node its own result, named by graph and node) or graph (each captured graph launch one result: its captured nodes and the memsets and copies between them replayed as one graph in every pass)';

/**
 * Parses `--graph-profiling`.
 * @throws {InvalidArgumentError} for anything but `node` or `graph` (the CLI exits with 2).
 */
export function parseGraphProfiling(text: string): GraphProfiling {
  if (text === 'node' || text === 'graph') return text;
  throw new InvalidArgumentError(`"${text}" is not node or graph.`);
}

/** The launch's place in a graph launch, when it was captured as a kernel node of one. */
export function graphNodeOf(launch: CaptureLaunch): CaptureGraphNode | undefined {
  const node: unknown = (launch as { graph?: unknown }).graph;
  if (typeof node !== 'object' || node === null) return undefined;
  const { graph, node: handle, nodeIndex, graphLaunch } = node as Record<string, unknown>;
  if (typeof graph !== 'string' || typeof handle !== 'string' || typeof nodeIndex !== 'number' || typeof graphLaunch !== 'number') return undefined;
  return { graph, node: handle, nodeIndex, graphLaunch };
}

/** A captured launch's name in results: its function, and for a graph's kernel node `[graph G node N, launch K]`. */
export function capturedLaunchName(launch: CaptureLaunch): string {
  return `${launch.function}${graphNodeSuffix(graphNodeOf(launch))}`;
}

/** A captured graph launch's name in results: `graph G, launch K (N nodes)`. */
export function capturedGraphName(node: CaptureGraphNode, nodes: number): string {
  return `graph ${node.graph}, launch ${node.graphLaunch} (${nodes} node${nodes === 1 ? '' : 's'})`;
}

/** `{ graph }` of a kernel node of a graph launch, for a result's row; nothing for another launch. */
export function graphField(launch: CaptureLaunch): { readonly graph?: CaptureGraphNode } {
  const node = graphNodeOf(launch);
  return node === undefined ? {} : { graph: node };
}

/** ` [graph G node N, launch K]` after a kernel node's name in a table; empty for another launch. */
export function graphNodeSuffix(node: CaptureGraphNode | undefined): string {
  return node === undefined ? '' : ` [graph ${node.graph} node ${node.nodeIndex}, launch ${node.graphLaunch}]`;
}
