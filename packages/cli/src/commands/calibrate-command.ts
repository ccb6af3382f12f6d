import { Command, InvalidArgumentError, Option } from 'commander';
import { openRuntime } from '@kreplay/native';
import type { Runtime } from '@kreplay/native';
import { calibrateResultSchemaId, calibrateResultVersion, formatBytes, formatRate, measureNativeCalls, measureWindowCost } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';
import { describeByteSize, parseByteSize } from '../byte-size.js';
import { checkDeviceMemoryFits } from '../device-memory-fit.js';
import { createProgress } from '../progress.js';
import type { Progress } from '../progress.js';
import { checkJsonOutput, withJsonOutput, writeJsonThenPrint, type JsonOutputOptions } from '../json-output-file.js';

interface CalibrateOptions extends RuntimeCommandOptions, JsonOutputOptions {
  readonly json?: boolean;
  readonly planBytes: number;
}

/** The smallest copy plan whose time says something about bandwidth rather than the call's fixed cost. */
const minimumPlanBytes = 2 ** 20;

/**
 * Parses --plan-bytes: a byte size of at least 1 MiB (a 1-byte plan printed a rate of 0).
 * @throws InvalidArgumentError below the minimum, saying it.
 */
function parsePlanBytes(text: string): number {
  const bytes = parseByteSize(text);
  if (bytes < minimumPlanBytes) {
    throw new InvalidArgumentError(
      `A copy plan below 1 MiB (${minimumPlanBytes} bytes) measures its fixed cost, not a rate; pass at least 1MiB (the empty copy plan line gives the fixed cost).`,
    );
  }
  return bytes;
}

/** Rounds of window timings: one warm-up, then the repetitions whose median is reported. */
const windowRepetitions = 3;

/** The native calls, then the window cost, counting one step for the calls and one per round of window timings. */
async function measureAll(runtime: Runtime, planBytes: number, progress: Progress) {
  const result = await measureNativeCalls(runtime, { planBytes });
  progress.update(1);
  const window = await measureWindowCost(runtime, { repetitions: windowRepetitions, onProgress: (done) => progress.update(1 + done) });
  return { result, window };
}

/** `kreplay calibrate`: what a native call and a copy plan cost on this machine. */
export function calibrateCommand(io: CliIo): Command {
  return withJsonOutput(withRuntimeOptions(new Command('calibrate').description('measure what a native call, a copy plan and a replay window cost')))
    .addOption(new Option('--plan-bytes <bytes>', 'bytes per copy plan (at least 1MiB)').argParser(parsePlanBytes).default(64 * 2 ** 20, describeByteSize(64 * 2 ** 20)))
    .option('--json', 'print one JSON object')
    .action(async (options: CalibrateOptions) => {
      await checkJsonOutput('calibrate', options);
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      const planned = `--plan-bytes ${describeByteSize(options.planBytes)} (a source and a destination of it, ${describeByteSize(2 * options.planBytes)})`;
      checkDeviceMemoryFits(runtime, { command: 'calibrate', flag: '--plan-bytes', given: planned, bytes: 2 * options.planBytes });
      // Steps: the native calls, then each round of window timings.
      const progress = createProgress(io, { label: 'calibrate', total: 1 + windowRepetitions + 1, unit: 'steps' });
      const { result, window } = await measureAll(runtime, options.planBytes, progress).finally(() => progress.done());
      const report = { schema: calibrateResultSchemaId, schemaVersion: calibrateResultVersion, ...result, window };
      if (options.json) {
        await writeJsonThenPrint(io, options, report, `${JSON.stringify(report)}\n`);
        return;
      }
      let text = `${result.driver} / ${result.agent}\n`;
      text += `  empty copy plan: ${result.emptyPlanEnqueueMicroseconds.toFixed(2)} us enqueued, `;
      text += `${result.emptyPlanRoundTripMicroseconds.toFixed(1)} us with a wait\n`;
      for (const plan of result.copyPlans) {
        text += `  copy plan ${formatBytes(plan.bytes)} in ${plan.segments} segment(s): ${formatRate(plan.bytesPerSecond)}\n`;
      }
      text += `  bare dispatch (tiny kernel, waited for): ${window.bareDispatchMicroseconds.toFixed(1)} us\n`;
      for (const cost of window.strategies) {
        text += `  replay window, ${cost.strategy}, 2 passes${cost.phaseTimings ? ', phases timed' : ''}: ${cost.windowMicroseconds.toFixed(1)} us `;
        text += `(fixed ${cost.fixedMicroseconds.toFixed(1)} us beyond its two passes; ${cost.ratioToBareDispatch.toFixed(2)}x a bare dispatch)\n`;
      }
      await writeJsonThenPrint(io, options, report, text);
    });
}
