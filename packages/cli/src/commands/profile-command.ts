import { Command, Option } from 'commander';
import { openRuntime } from '@kreplay/native';
import type { DriverChoice, ProfilerRange } from '@kreplay/native';
import { strategyByName, strategyNames } from '@kreplay/bench';
import { createReplayEngine, cuptiPasses } from '@kreplay/replay';
import type { CuptiCollected } from '@kreplay/replay';
import { createStaging } from '@kreplay/snapshot';
import type { StagingTierChoice } from '@kreplay/snapshot';
import { createTracker } from '@kreplay/tracker';
import type { CliIo } from '../cli-io.js';
import { parseByteSize, parseFraction, parsePositiveInteger, parseShare } from '../byte-size.js';
import { driverOption } from '../driver-option.js';
import { wasGiven } from '../option-dependencies.js';
import { createProfileWorkload, parseDeclaredArgument, parseDimensions, planProfileWorkload } from '../profile-workload.js';
import type { DeclaredArgument, ProfileWorkload, ProfileWorkloadPlan } from '../profile-workload.js';
import { UsageError } from '../usage-error.js';

interface ProfileOptions {
  readonly driver: DriverChoice;
  readonly metrics: string;
  readonly range: ProfilerRange;
  readonly strategy: string;
  readonly tier: StagingTierChoice;
  readonly dispatches: number;
  readonly footprint: number;
  readonly writeFraction: number;
  readonly inputShare: number;
  readonly arg?: DeclaredArgument[];
  readonly args?: string;
  readonly grid?: [number, number, number];
  readonly block?: [number, number, number];
  readonly json?: boolean;
}

/** One dispatch's row of `kreplay profile`. */
export interface ProfileRow {
  readonly dispatch: number;
  readonly replayed: boolean;
  readonly passes: number;
  readonly wallMs: number;
  readonly bytesCopied: number;
  readonly metrics: Readonly<Record<string, number>> | null;
  readonly error?: string;
  readonly declineReason?: string;
}

/** What `kreplay profile --json` prints. */
export interface ProfileReport {
  readonly driver: string;
  readonly device: string;
  readonly chip: string;
  readonly workload: string;
  readonly strategy: string;
  /** What each pass measured: the dispatch's kernel, or a range around the dispatch. */
  readonly range: ProfilerRange;
  readonly passes: number;
  readonly metrics: readonly string[];
  readonly units: Readonly<Record<string, string>>;
  /** Host milliseconds to load CUPTI and plan the metrics. */
  readonly setupMs: number;
  readonly dispatches: readonly ProfileRow[];
}

/** `kreplay profile`: hardware counters of a dispatch on NVIDIA (CUPTI, user replay through the engine). */
export function profileCommand(io: CliIo): Command {
  return new Command('profile')
    .description('collect CUPTI metrics per dispatch on NVIDIA, replaying each dispatch once per pass CUPTI needs')
    .argument('[workload]', 'scatter (default) or ptx:<file>:<kernel>', 'scatter')
    .requiredOption('--metrics <a,b,c>', 'CUPTI metric names, comma separated')
    .addOption(driverOption().default('cuda' as DriverChoice))
    .addOption(new Option('--range <range>', "what each pass measures: the dispatch's kernel (as ncu does) or a range pushed around the dispatch").choices(['kernel', 'dispatch']).default('kernel'))
    .addOption(new Option('--strategy <name>', 'snapshot strategy restoring memory between passes').choices(strategyNames).default('dirty-pages'))
    .addOption(new Option('--tier <tier>', 'staging tier').choices(['auto', 'device', 'host-pinned', 'host-pageable']).default('auto'))
    .option('--dispatches <n>', 'dispatches to profile', parsePositiveInteger, 1)
    .option('--footprint <bytes>', 'scatter: device memory the workload holds', parseByteSize, 2 ** 30)
    .option('--write-fraction <f>', "scatter: fraction of the footprint's pages each dispatch writes", parseFraction, 0.25)
    .option('--input-share <f>', 'scatter: share of the footprint the kernel reads (0: one kernel per dispatch)', parseShare, 0)
    .option('--arg <name=type:access:value>', 'ptx: a declared argument, in order (a pointer value is the bytes to allocate)', (text: string, previous?: DeclaredArgument[]) => parseDeclaredArgument(text, previous))
    .option('--args <file.json>', 'ptx: declared arguments from a JSON file [{ name, type, access?, value }]')
    .option('--grid <x,y,z>', 'ptx: grid dimensions', parseDimensions)
    .option('--block <x,y,z>', 'ptx: block dimensions', parseDimensions)
    .option('--json', 'print one JSON object')
    .action(async (workloadSpec: string, options: ProfileOptions, command: Command) => {
      // Everything the user gave is checked before the driver opens (which may fail for its own reasons).
      const metrics = options.metrics.split(',').map((metric) => metric.trim()).filter((metric) => metric !== '');
      if (metrics.length === 0) throw new UsageError('profile', `--metrics names no metric ("${options.metrics}")`, 'Pass CUPTI metric names separated by commas, e.g. --metrics gpu__time_duration.sum');
      const plan = planProfileWorkload(workloadSpec, options, (flag) => wasGiven(command, flag));
      const report = await profile(plan, metrics, options);
      io.stdout(options.json ? `${JSON.stringify(report)}\n` : describeProfile(report));
    });
}

async function profile(plan: ProfileWorkloadPlan, metrics: readonly string[], options: ProfileOptions): Promise<ProfileReport> {
  await using runtime = await openRuntime({ driver: options.driver });
  const agent = runtime.agents[0]!;
  const started = performance.now();
  const passes = await cuptiPasses({ runtime, metrics, agentIds: [agent.id], range: options.range });
  const setupMs = performance.now() - started;
  const session = passes.sessions.get(agent.id)!;
  let workload: ProfileWorkload | undefined;
  try {
    // Disposed in reverse order at the end of this block, on every path, before the finally below.
    using tracker = createTracker(runtime);
    using staging = createStaging(runtime, tracker);
    using strategy = strategyByName(options.strategy, { tier: options.tier });
    await using engine = createReplayEngine({ runtime, tracker, staging, strategy, passes });
    await using queue = agent.createQueue();
    workload = await createProfileWorkload(agent, plan);
    const rows: ProfileRow[] = [];
    for (let index = 0; index < options.dispatches; index += 1) {
      const { kernel, args, launch } = workload.dispatch(index);
      const result = await engine.dispatch({ queue, kernel, args, ...(launch && { launch }) });
      const collected = result.collected as CuptiCollected | undefined;
      rows.push({
        dispatch: index,
        replayed: result.replayed,
        passes: result.passes,
        wallMs: result.timings.wallMs,
        bytesCopied: result.bytesCopied,
        metrics: collected?.metrics ?? null,
        ...(collected?.error && { error: `${collected.error.code}: ${collected.error.message}` }),
        ...(result.failure && { error: `${result.failure.phase}: ${result.failure.error.message}` }),
        ...(result.declineReason && { declineReason: result.declineReason }),
      });
    }
    return {
      driver: runtime.driver,
      device: agent.info.name,
      chip: session.plan.chip,
      workload: workload.description,
      strategy: strategy.name,
      range: session.range,
      passes: session.passCount,
      metrics,
      units: Object.fromEntries(metrics.map((metric, index) => [metric, session.plan.units[index] ?? ''])),
      setupMs,
      dispatches: rows,
    };
  } finally {
    workload?.free();
    await passes.dispose();
  }
}

function formatValue(value: number, unit: string): string {
  if (unit === 'nanosecond') return `${(value / 1000).toFixed(3)} us`;
  if (unit === 'percent') return `${value.toFixed(2)} %`;
  if (Math.abs(value) >= 1e6) return `${value.toExponential(4)} ${unit}`;
  return `${Number(value.toFixed(4))} ${unit}`;
}

/** The terminal form of a profile report: one block per dispatch. */
export function describeProfile(report: ProfileReport): string {
  const width = Math.max(...report.metrics.map((metric) => metric.length));
  const lines = [`${report.device} (${report.chip}), ${report.workload}; ${report.passes} pass${report.passes === 1 ? '' : 'es'} per dispatch, strategy ${report.strategy}, ${report.range} range; CUPTI setup ${report.setupMs.toFixed(1)} ms`];
  for (const row of report.dispatches) {
    lines.push(`dispatch ${row.dispatch}: ${row.passes} passes, ${row.wallMs.toFixed(2)} ms wall, ${row.bytesCopied} bytes copied${row.replayed ? '' : ' (not replayed)'}`);
    if (row.declineReason) lines.push(`  declined: ${row.declineReason}`);
    if (row.error) lines.push(`  error: ${row.error}`);
    for (const metric of report.metrics) {
      const value = row.metrics?.[metric];
      lines.push(`  ${metric.padEnd(width)}  ${value === undefined ? '-' : formatValue(value, report.units[metric] ?? '')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
