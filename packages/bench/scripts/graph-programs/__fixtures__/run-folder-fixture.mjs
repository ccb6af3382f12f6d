// A made-up folder of graph-programs/run.sh, its files shaped as the tools write them: the programs'
// JSON lines, `kreplay capture --json` (CaptureReport of the CLI's capture-command.ts), `kreplay
// replay --capture --json` (capture-replay-result.schema.json), `kreplay profile --json`
// (profile-report.schema.json), and ncu's CSV as ncu-report-csv.py writes it.
//   forward: 2 graph launches of graph 0x7a00, 3 kernel nodes each (gemm, elementwise, layer norm).
//   nccl:    2 ordinary launches, 3 collective kernels counted and not recorded.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sol = ['gpu__time_duration.sum', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'];
/** Each kernel of the forward graph: the symbol kreplay records, the name ncu prints, its duration in ns. */
export const forwardKernels = [
  { symbol: 'sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32', ncu: 'sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32', ns: 12000 },
  { symbol: '_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_', ncu: 'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char *, 1>>(int, T2, T3)', ns: 3000 },
  { symbol: '_ZN2at6native28vectorized_layer_norm_kernelIffLb0EEEviT0_PKT_S5_S5_PS2_S6_PS3_', ncu: 'void at::native::vectorized_layer_norm_kernel<float, float, false>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)', ns: 5000 },
];
const graphNode = (graphLaunch, nodeIndex) => ({ graph: '0x7a00', node: `0x${(0x100 + nodeIndex).toString(16)}`, nodeIndex, graphLaunch });
const forwardLaunches = [0, 1].flatMap((graphLaunch) => forwardKernels.map((kernel, index) => ({ sequence: graphLaunch * 3 + index, kernel, graph: graphNode(graphLaunch, index * 2) })));

function captureReport(command, { launches, kernels, notCaptured, graphLaunches, sequenceBreaks }) {
  const capture = {
    directory: '/tmp/graph-programs/x/capture/processes/4242',
    pid: 4242,
    command,
    device: { name: 'NVIDIA H100 80GB HBM3', architecture: 'sm_90' },
    complete: true,
    launches,
    kernels: kernels.map(([name, count]) => ({ function: name, launches: count, codeBytes: 4096, registers: 32 })),
    bytesStored: 1 << 20,
    blobs: 12,
    notCaptured,
    formatVersion: 2,
    sequences: Object.values(sequenceBreaks).reduce((sum, count) => sum + count, 1),
    sequenceBreaks,
    graphLaunches,
    cost: { wallSeconds: 3, deviceBytesHashed: 1 << 30, bytesCopiedToHost: 1 << 20, bytesStored: 1 << 20, blobsStored: 12, launches, programWaitSeconds: 1.5 },
    damaged: [],
    incomplete: [],
    selectionError: null,
  };
  return { program: { command, exitCode: 0, signal: null }, settings: { stagingBytes: 256 * 2 ** 20, writerThreads: 'auto' }, capture, processes: [capture], unreadable: [] };
}

function replayRow(launch, outcome = 'reproduced') {
  const name = launch.graph ? `${launch.kernel.symbol} [graph ${launch.graph.graph} node ${launch.graph.nodeIndex}, launch ${launch.graph.graphLaunch}]` : launch.kernel.symbol;
  return {
    sequence: launch.sequence,
    function: name,
    ...(launch.graph && { graph: launch.graph }),
    range: 0,
    outcome,
    replayed: true,
    passes: 5,
    verification: outcome === 'mismatch' ? 'mismatch' : 'verified',
    nondeterministic: false,
    bytesCopied: 4096,
    bytesPrepared: 8192,
    relocatedRegions: 0,
    wallMs: 1.5,
    postLaunch: { reproduced: outcome === 'reproduced', pagesCompared: 10, pagesMismatched: outcome === 'reproduced' ? 0 : 2, mismatches: [] },
    notes: [],
  };
}

function replayReport(launches, graphProfiling, outcomes = {}) {
  const rows = launches.map((launch) => replayRow(launch, outcomes[launch.sequence]));
  const name = (row) => `${row.sequence} ${row.function}`;
  return {
    schema: 'urn:kreplay:schema:capture-replay-result:1',
    schemaVersion: 1,
    capture: '/tmp/graph-programs/x/capture',
    driver: 'cuda',
    device: 'NVIDIA H100 80GB HBM3',
    strategy: 'dirty-pages',
    tier: 'auto',
    passes: 5,
    verify: 'full',
    range: 'auto',
    rangeLength: 3,
    graphProfiling,
    launches: rows,
    ranges: [{ first: 0, launches: launches.map((launch) => launch.sequence), replayed: true, passes: 5, verification: 'verified', bytesCopied: 4096, bytesBefore: 0, bytesPrepared: 8192, wallMs: 3, wallMsPerLaunch: 1, notes: [], ...(graphProfiling === 'graph' && { graph: launches[0].graph }) }],
    notes: [],
    relocations: [],
    reproduced: rows.filter((row) => row.outcome === 'reproduced').length,
    mismatched: rows.filter((row) => row.outcome === 'mismatch').map(name),
    failed: [],
    declined: [],
    damaged: [],
    seconds: 2.5,
  };
}

function profileReport(rows, metrics, graphProfiling) {
  return {
    schema: 'urn:kreplay:schema:profile-report:1',
    schemaVersion: 1,
    driver: 'cuda',
    device: 'NVIDIA H100 80GB HBM3',
    chip: 'GH100',
    workload: `capture:/tmp/graph-programs/x/capture (${rows.length} launches)`,
    strategy: 'dirty-pages',
    measure: graphProfiling === 'graph' ? 'dispatch' : 'kernel',
    cacheControl: 'all',
    range: 'auto',
    graphProfiling,
    passes: 2,
    warmRuns: 2,
    samples: 3,
    metrics,
    units: Object.fromEntries(metrics.map((metric) => [metric, metric.startsWith('gpu__time') ? 'nanosecond' : 'percent'])),
    setupMs: 700,
    wallMs: 4000,
    dispatches: rows,
    ranges: [],
  };
}

const profileRow = (dispatch, kernel, metrics, graph) => ({ dispatch, kernel, ...(graph && { graph }), range: null, replayed: true, passes: 2, wallMs: 10, bytesCopied: 4096, metrics });

/** ncu's CSV (ncu-report-csv.py's shape): a header, a row of units, one row per result. */
export function ncuCsv(metrics, results) {
  const rows = [['ID', 'Kernel Name', ...metrics], ['', '', ...metrics.map(() => '')], ...results.map((result, index) => [String(index), result.name, ...metrics.map((metric) => String(result.values[metric]))])];
  return `${rows.map((cells) => `"${cells.join('","')}"`).join('\n')}\n`;
}

/**
 * Writes the folder at `folder`: forward with every step, kreplay 2% slower than ncu's first run
 * on durations, 5% below on sm throughput (ncu's second run 2% above its first), one launch
 * mismatching in graph mode, graph durations 1% above ncu's; nccl with capture and replay only.
 */
export function writeRunFolder(folder) {
  const forward = join(folder, 'forward');
  const nccl = join(folder, 'nccl');
  mkdirSync(forward, { recursive: true });
  mkdirSync(nccl, { recursive: true });
  writeFileSync(join(folder, 'machine.txt'), 'NVIDIA H100 80GB HBM3, 580.95.05, 81559 MiB\nVersion 2025.3.1.0 (build 36398880) (public-release)\ntorch 2.11.0+cu130 cuda 13.0 nccl (2, 28, 7)\n');
  writeFileSync(join(folder, 'skipped.txt'), '');
  writeFileSync(
    join(folder, 'timings.txt'),
    ['forward.warm 9.0 exit=0', 'forward.program 8.0 exit=0', 'forward.capture 11.0 exit=0', 'forward.replay 4.0 exit=0', 'forward.replay-graph 4.5 exit=0', 'forward.profile 6.0 exit=0',
      'forward.profile-graph 5.0 exit=0', 'forward.ncu-node-1 38.0 exit=0', 'forward.ncu-node-2 42.0 exit=0', 'forward.ncu-graph-1 14.0 exit=0', 'nccl.program 7.0 exit=0', 'nccl.capture 9.0 exit=0',
      'nccl.replay 3.0 exit=0', 'total 190 exit=0'].join('\n') + '\n',
  );
  const python = (script) => ['python3', `/repo/packages/bench/scripts/graph-programs/${script}`];

  writeFileSync(join(forward, 'steps.txt'), 'warm program capture replay replay-graph profile profile-graph ncu-node ncu-graph\n');
  const forwardLine = { program: 'cuda_graph_forward', replays: 2, outputSum: 12.5, outputChecksum: '0x1f2e3d4c5b6a', regionSeconds: 0.0042 };
  writeFileSync(join(forward, 'program.json'), `${JSON.stringify(forwardLine)}\n`);
  const kernels = forwardKernels.map((kernel) => [kernel.symbol, 2]);
  const forwardCapture = captureReport(python('cuda_graph_forward.py'), { launches: 6, kernels, notCaptured: {}, graphLaunches: 2, sequenceBreaks: { 'graph-launch': 1 } });
  writeFileSync(join(forward, 'capture.json'), `${JSON.stringify({ ...forwardLine, regionSeconds: 2.1 })}\n${JSON.stringify(forwardCapture)}\n`);
  writeFileSync(join(forward, 'replay.json'), `${JSON.stringify(replayReport(forwardLaunches, 'node'))}\n`);
  writeFileSync(join(forward, 'replay-graph.json'), `${JSON.stringify(replayReport(forwardLaunches, 'graph', { 4: 'mismatch' }))}\n`);
  const nodeRows = forwardLaunches.map((launch) => profileRow(launch.sequence, launch.kernel.symbol, { [sol[0]]: launch.kernel.ns * 1.02, [sol[1]]: 47.5 }, launch.graph));
  writeFileSync(join(forward, 'profile.json'), `${JSON.stringify(profileReport(nodeRows, sol, 'node'))}\n`);
  const graphRows = [0, 3].map((first, graphLaunch) => profileRow(first, `graph 0x7a00, launch ${graphLaunch} (3 nodes)`, { [sol[0]]: 20200 }));
  writeFileSync(join(forward, 'profile-graph.json'), `${JSON.stringify(profileReport(graphRows, [sol[0]], 'graph'))}\n`);
  const ncuNode = (scale) => ncuCsv(sol, forwardLaunches.map((launch) => ({ name: launch.kernel.ncu, values: { [sol[0]]: launch.kernel.ns * scale, [sol[1]]: 50 * scale } })));
  writeFileSync(join(forward, 'ncu-node-1.csv'), ncuNode(1));
  writeFileSync(join(forward, 'ncu-node-2.csv'), ncuNode(1.02));
  writeFileSync(join(forward, 'ncu-graph-1.csv'), ncuCsv([sol[0]], [0, 1].map(() => ({ name: 'graph', values: { [sol[0]]: 20000 } }))));

  writeFileSync(join(nccl, 'steps.txt'), 'program capture replay\n');
  const ncclLine = { program: 'nccl_allreduce', worldSize: 1, collectives: { all_reduce_sum: 3, all_reduce_avg: 3, all_to_all_single: 3 }, outputSum: 1.5, outputChecksum: '0xabc', regionSeconds: 0.01 };
  writeFileSync(join(nccl, 'program.json'), `${JSON.stringify(ncclLine)}\n`);
  const ncclKernels = [
    ['_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastIZZZNS0_15tanh_kernel_cudaERNS_18TensorIteratorBaseEEUlvE_EEvS4_RKT_EUliE_EEviT1_', 1],
    ['_Z13oneRankReduceI13FuncPreMulSumIfEEvPvS2_mmb', 1],
  ];
  const ncclCapture = captureReport(python('nccl_allreduce.py'), { launches: 2, kernels: ncclKernels, notCaptured: { collective: 3 }, graphLaunches: 0, sequenceBreaks: { 'uncaptured-launch': 1 } });
  writeFileSync(join(nccl, 'capture.json'), `${JSON.stringify(ncclLine)}\n${JSON.stringify(ncclCapture)}\n`);
  const ncclLaunches = ncclKernels.map(([symbol], sequence) => ({ sequence, kernel: { symbol } }));
  writeFileSync(join(nccl, 'replay.json'), `${JSON.stringify(replayReport(ncclLaunches, 'node'))}\n`);
}
