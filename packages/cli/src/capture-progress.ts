import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { listCaptureProcesses } from '@kreplay/native';
import type { CliIo } from './cli-io.js';
import { defaultProgressIntervalMs } from './progress.js';

const RECORD = /^\d{8}\.json$/;

/** Complete launch records in `directory`'s own capture and in its processes' captures. */
async function launchesIn(directory: string): Promise<number> {
  const folders = [directory, ...(await listCaptureProcesses(directory)).map((process) => process.directory)];
  let launches = 0;
  for (const folder of folders) {
    launches += (await readdir(join(folder, 'launches')).catch(() => [] as string[])).filter((name) => RECORD.test(name)).length;
  }
  return launches;
}

/**
 * While a program runs under capture, says on stderr how many launches its folder holds (all its
 * processes' captures together), once per progress interval (5 s by default) when the count
 * changed. The capture library writes a launch's record last, so the count is of complete
 * launches. Dispose to stop.
 */
export function watchCaptureProgress(io: CliIo, directory: string): Disposable {
  const interval = io.progressIntervalMs ?? defaultProgressIntervalMs;
  if (!Number.isFinite(interval) || interval <= 0) return { [Symbol.dispose]: () => {} };
  let reported = 0;
  const timer = setInterval(() => {
    launchesIn(directory).then(
      (launches) => {
        if (launches === reported) return;
        reported = launches;
        io.stderr(`kreplay capture: ${launches} launch${launches === 1 ? '' : 'es'} captured so far\n`);
      },
      () => {},
    );
  }, interval);
  timer.unref();
  return { [Symbol.dispose]: () => clearInterval(timer) };
}
