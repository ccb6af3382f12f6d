import type { Runtime } from '@kreplay/native';
import type { CheckpointProvider, CheckpointSession } from '../baselines/checkpoint-provider.js';
import type { DispatchSample } from '../report/dispatch-sample.js';
import type { BenchCell } from '../sweep/bench-cell.js';
import { createScatterWorkload } from '../workloads/scatter-workload.js';
import { startRssSampler } from './rss-sampler.js';
import { stopBefore } from './run-measurement.js';
import type { RunControl, RunMeasurement, StopReason } from './run-measurement.js';

const noBytes = { deviceToDevice: 0, deviceToHost: 0, hostToDevice: 0, hostToHost: 0, hashed: 0 };

/**
 * Runs one cell through a checkpoint provider, as its vendor documents the loop: per dispatch save,
 * then each pass synchronized, with a restore before every pass after the first. Times are host
 * milliseconds; the provider reports no bytes.
 */
export async function runCheckpointCell(runtime: Runtime, provider: CheckpointProvider, cell: BenchCell, control: RunControl): Promise<RunMeasurement> {
  const agent = runtime.agents[0]!;
  const workload = await createScatterWorkload(agent, cell);
  const queue = agent.createQueue();
  const samples: DispatchSample[] = [];
  let stopped: StopReason | null = null;
  let session: CheckpointSession | undefined;
  try {
    session = await provider.open(queue);
    const rss = startRssSampler(control.rssSampleMilliseconds);
    const startedMs = performance.now();
    for (let index = 0; index < cell.dispatches; index += 1) {
      if ((stopped = stopBefore(index, startedMs, control)) !== null) break;
      const { kernel, args } = workload.dispatch(index);
      const dispatchStarted = performance.now();
      await session.save();
      const captureMs = performance.now() - dispatchStarted;
      const passMs: number[] = [];
      const restoreMs: number[] = [];
      for (let pass = 1; pass <= cell.passes; pass += 1) {
        let started = performance.now();
        queue.enqueueKernel(kernel, args);
        await queue.synchronize();
        passMs.push(performance.now() - started);
        if (pass === cell.passes) break;
        started = performance.now();
        await session.restore();
        restoreMs.push(performance.now() - started);
      }
      const wallMs = performance.now() - dispatchStarted;
      samples.push({ index, wallMs, quiesceMs: 0, lockWaitMs: 0, captureMs, passMs, restoreMs, verifyMs: 0, bytes: noBytes, stagingBytes: {}, replayed: true, tier: null });
      control.onDispatch?.(index);
    }
    const seconds = (performance.now() - startedMs) / 1000;
    const memory = rss.stop();
    return {
      cell,
      strategy: provider.name,
      tier: null,
      samples,
      seconds,
      stopped,
      memory: { rssBaselineBytes: memory.baselineBytes, rssPeakBytes: memory.peakBytes, rssSamples: memory.samples, stagingHostHighWaterBytes: 0 },
      background: null,
      notes: [`${provider.name} reports no byte counts; its times are host milliseconds of synchronized calls`],
    };
  } finally {
    await session?.dispose();
    await queue.dispose();
    workload.free();
  }
}
