import type { CaptureGraphNode, CaptureLaunch, CaptureRange, GraphStep, KernelGraph } from '@kreplay/native';
import type { DispatchResult } from '@kreplay/replay';
import type { CaptureRangeContext } from './capture-range-replay.js';
import { graphNodeOf, type GraphProfiling } from './graph-profiling.js';

/** What a capture's launches are replayed in: ranges of launches, or (`--graph-profiling graph`) captured graph launches. */
export type CaptureUnit =
  | { readonly kind: 'range'; readonly launches: readonly CaptureLaunch[] }
  /** The captured kernel nodes of one graph launch, in the order the capture ran them. */
  | { readonly kind: 'graph'; readonly launches: readonly CaptureLaunch[]; readonly node: CaptureGraphNode };

/** The key of the graph launch a launch ran in, or undefined outside graphs. */
function graphLaunchKey(launch: CaptureLaunch): string | undefined {
  const node = graphNodeOf(launch);
  return node === undefined ? undefined : `${node.graph}/${node.graphLaunch}`;
}

/**
 * The units of the planned ranges: with `node`, each range as it is; with `graph`, each range cut
 * where a graph launch begins or ends, the launches of one graph launch a `graph` unit, the others
 * ranges. A graph launch whose nodes the ranges cut apart (`--range K`, the range cap, a node not
 * selected) is still one unit, in the place of its first node: `graph` measures whole graph launches.
 */
export function captureUnits(ranges: readonly (readonly CaptureLaunch[])[], profiling: GraphProfiling): CaptureUnit[] {
  if (profiling === 'node') return ranges.map((launches) => ({ kind: 'range', launches }));
  const nodesOfGraphLaunch = new Map<string, CaptureLaunch[]>();
  for (const launch of ranges.flat()) {
    const key = graphLaunchKey(launch);
    if (key === undefined) continue;
    const nodes = nodesOfGraphLaunch.get(key);
    if (nodes === undefined) nodesOfGraphLaunch.set(key, [launch]);
    else nodes.push(launch);
  }
  const placed = new Set<string>();
  const units: CaptureUnit[] = [];
  for (const range of ranges) {
    let start = 0;
    while (start < range.length) {
      const node = graphNodeOf(range[start]!);
      let end = start + 1;
      const same = (launch: CaptureLaunch) => {
        const other = graphNodeOf(launch);
        return node === undefined ? other === undefined : other !== undefined && other.graphLaunch === node.graphLaunch && other.graph === node.graph;
      };
      while (end < range.length && same(range[end]!)) end += 1;
      const key = graphLaunchKey(range[start]!);
      if (node === undefined || key === undefined) {
        units.push({ kind: 'range', launches: range.slice(start, end) });
      } else if (!placed.has(key)) {
        placed.add(key);
        const launches = [...nodesOfGraphLaunch.get(key)!].sort((a, b) => a.sequence - b.sequence);
        units.push({ kind: 'graph', launches, node: graphNodeOf(launches[0]!)! });
      }
      start = end;
    }
  }
  return units;
}

/**
 * One run of a captured graph launch through the engine: its launches prepared as a range
 * (CaptureReplay.prepareRange: memory as before its first node, the work between nodes staged),
 * made into one graph (each node's copies before it, then its kernel) with agent.createGraph, and
 * dispatched as one workload (`engine.dispatch({ queue, graph })`).
 * @throws what prepareRange, createGraph and dispatch throw.
 */
export async function dispatchCaptureGraph(
  context: Omit<CaptureRangeContext, 'verify'>,
  launches: readonly CaptureLaunch[],
): Promise<{ readonly prepared: CaptureRange; readonly result: DispatchResult }> {
  const { replay, engine, queue, tracker } = context;
  const prepared = await replay.prepareRange(launches);
  if (prepared.staging !== null) tracker.tag(prepared.staging.address, 'excluded');
  const steps: GraphStep[] = prepared.launches.flatMap(({ dispatch, before }) => [
    ...before.filter((segment) => segment.bytes > 0).map((segment) => ({ kind: 'copy' as const, ...segment })),
    { kind: 'kernel' as const, kernel: dispatch.kernel, args: dispatch.args, ...(dispatch.launch && { launch: dispatch.launch }) },
  ]);
  const graph: KernelGraph = queue.agent.createGraph(steps);
  try {
    return { prepared, result: await engine.dispatch({ queue, graph }) };
  } finally {
    graph.dispose();
  }
}
