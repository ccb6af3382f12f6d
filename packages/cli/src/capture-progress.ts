import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliIo } from './cli-io.js';
import { defaultProgressIntervalMs } from './progress.js';

const RECORD = /^\d{8}\.json$/;

/**
 * While a program runs under capture, says on stderr how many launches its folder holds, once per
 * progress interval (5 s by default) when the count changed. The capture library writes a launch's
 * record last, so the count is of complete launches. Dispose to stop.
 */
export function watchCaptureProgress(io: CliIo, directory: string): Disposable {
  const interval = io.progressIntervalMs ?? defaultProgressIntervalMs;
  if (!Number.isFinite(interval) || interval <= 0) return { [Symbol.dispose]: () => {} };
  let reported = 0;
  const timer = setInterval(() => {
    readdir(join(directory, 'launches')).then(
      (names) => {
        const launches = names.filter((name) => RECORD.test(name)).length;
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
