import { Command } from 'commander';
import { openRuntime } from '@kreplay/native';
import { demoResultSchemaId, demoResultVersion, formatRate, measureNativeCalls, runReplayExperiment, strategyNames } from '@kreplay/bench';
import type { ReplayExperimentResult } from '@kreplay/bench';
import type { CliIo } from '../cli-io.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';
import { describeReplay } from './replay-command.js';

interface DemoOptions extends RuntimeCommandOptions {
  readonly json?: boolean;
}

/** `kreplay demo`: the agents, one verified replay per strategy, and what a native call costs; it stops early once stdout is closed. */
export function demoCommand(io: CliIo): Command {
  return withRuntimeOptions(new Command('demo').description('a short replay and benchmark demo on the default driver'))
    .option('--json', 'print one JSON object')
    .action(async (options: DemoOptions) => {
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      const agents = runtime.agents.map((agent) => agent.info.name);
      if (!options.json) io.stdout(`driver ${runtime.driver}: ${agents.join(', ')}\n\n`);
      const replays: ReplayExperimentResult[] = [];
      for (const strategy of strategyNames) {
        // Nobody reads on (`| head`): stop as git log does, quietly.
        if (io.stdoutClosed?.aborted === true) return;
        const result = await runReplayExperiment(runtime, {
          strategy,
          tier: 'auto',
          footprintBytes: 64 * 2 ** 20,
          writeFraction: 0.01,
          dispatches: 10,
          passes: 5,
          verify: 'full',
        });
        replays.push(result);
        if (!options.json) io.stdout(describeReplay(result));
      }
      if (io.stdoutClosed?.aborted === true) return;
      const calls = await measureNativeCalls(runtime, { planBytes: 64 * 2 ** 20, segmentCounts: [1, 4096], repetitions: 3 });
      if (options.json) {
        io.stdout(`${JSON.stringify({ schema: demoResultSchemaId, schemaVersion: demoResultVersion, driver: runtime.driver, agents, replays, calls })}\n`);
        return;
      }
      io.stdout(`\nnative calls: an empty copy plan costs ${calls.emptyPlanEnqueueMicroseconds.toFixed(2)} us to enqueue, `);
      io.stdout(`${calls.emptyPlanRoundTripMicroseconds.toFixed(1)} us with a wait\n`);
      for (const plan of calls.copyPlans) {
        io.stdout(`copy plan of ${plan.segments} segment(s): ${formatRate(plan.bytesPerSecond)}\n`);
      }
    });
}
