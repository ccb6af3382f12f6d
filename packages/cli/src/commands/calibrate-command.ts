import { Command, InvalidArgumentError } from 'commander';
import { openRuntime } from '@kreplay/native';
import { formatBytes, measureNativeCalls, measureWindowCost } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';
import { parseByteSize } from '../byte-size.js';

interface CalibrateOptions extends RuntimeCommandOptions {
  readonly json?: boolean;
  readonly planBytes: number;
}

/** The smallest copy plan whose time says something about bandwidth rather than the call's fixed cost. */
const minimumPlanBytes = 2 ** 20;

/**
 * Parses --plan-bytes: a byte size of at least 1 MiB (a 1-byte plan printed `0.00 GB/s`).
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

/** `kreplay calibrate`: what a native call and a copy plan cost on this machine. */
export function calibrateCommand(io: CliIo): Command {
  return withRuntimeOptions(
    new Command('calibrate').description('measure what a native call, a copy plan and a replay window cost'),
  )
    .option('--plan-bytes <bytes>', 'bytes per copy plan (at least 1MiB)', parsePlanBytes, 64 * 2 ** 20)
    .option('--json', 'print one JSON object')
    .action(async (options: CalibrateOptions) => {
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      const result = await measureNativeCalls(runtime, { planBytes: options.planBytes });
      const window = await measureWindowCost(runtime);
      if (options.json) {
        io.stdout(`${JSON.stringify({ ...result, window })}\n`);
        return;
      }
      io.stdout(`${result.driver} / ${result.agent}\n`);
      io.stdout(`  empty copy plan: ${result.emptyPlanEnqueueMicroseconds.toFixed(2)} us enqueued, `);
      io.stdout(`${result.emptyPlanRoundTripMicroseconds.toFixed(1)} us with a wait\n`);
      for (const plan of result.copyPlans) {
        const rate = `${(plan.bytesPerSecond / 1e9).toFixed(2)} GB/s`;
        io.stdout(`  copy plan ${formatBytes(plan.bytes)} in ${plan.segments} segment(s): ${rate}\n`);
      }
      io.stdout(`  bare dispatch (tiny kernel, waited for): ${window.bareDispatchMicroseconds.toFixed(1)} us\n`);
      for (const cost of window.strategies) {
        io.stdout(`  replay window, ${cost.strategy}, 2 passes${cost.phaseTimings ? ', phases timed' : ''}: ${cost.windowMicroseconds.toFixed(1)} us `);
        io.stdout(`(fixed ${cost.fixedMicroseconds.toFixed(1)} us beyond its two passes; ${cost.ratioToBareDispatch.toFixed(2)}x a bare dispatch)\n`);
      }
    });
}
