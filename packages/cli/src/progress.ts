import type { CliIo } from './cli-io.js';
import { formatDuration } from './format-duration.js';

/** Progress of long work, on stderr; stdout is left to results. */
export interface Progress {
  /** `done` of the total are finished. */
  update(done: number): void;
  /** The work ended (or stopped): clears the bar, or prints the last line. */
  done(): void;
}

/** What a progress report counts. */
export interface ProgressOptions {
  /** What is being done, e.g. `bench quick`. */
  readonly label: string;
  /** How many units the work has. */
  readonly total: number;
  /** What one unit is, plural, e.g. `runs`, `dispatches`. */
  readonly unit: string;
}

/** The default time between two progress lines when stderr is not a terminal. */
export const defaultProgressIntervalMs = 5000;

/** A bar is redrawn at most this often on a terminal. */
const redrawIntervalMs = 100;
const barWidth = 30;

/** A count per second with three significant digits: `6.00`, `0.250`, `12.3`, `1234`. */
function formatCountRate(perSecond: number): string {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return '0.00';
  return perSecond >= 1000 ? perSecond.toFixed(0) : perSecond.toPrecision(3);
}

/**
 * Reports progress on stderr. On a terminal (`io.interactive`), a bar redrawn in place at most every
 * 100 ms, with the rate and the ETA, cleared at the end. Otherwise (a pipe, a log file, CI), a line
 * `label: done/total unit (p%), rate unit/s, ETA t` once every `io.progressIntervalMs` (5 s by
 * default) and one at the end; work shorter than one interval prints nothing. The clock is
 * `io.now` (default `performance.now`).
 */
export function createProgress(io: CliIo, options: ProgressOptions): Progress {
  const now = io.now ?? (() => performance.now());
  const intervalMs = io.progressIntervalMs ?? defaultProgressIntervalMs;
  const { label, total, unit } = options;
  const started = now();
  let latest = 0;
  let lastShown = io.interactive ? Number.NEGATIVE_INFINITY : started;
  let shown = false;
  const describe = (done: number, time: number) => {
    const seconds = (time - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = done >= total ? 0 : rate > 0 ? (total - done) / rate : Number.NaN;
    const percent = `${Math.floor((100 * done) / Math.max(total, 1))}%`;
    return { seconds, rate: `${formatCountRate(rate)} ${unit}/s`, eta: formatDuration(eta), count: `${done}/${total} ${unit}`, percent };
  };
  return {
    update(done) {
      latest = done;
      const time = now();
      if (io.interactive) {
        if (time - lastShown < redrawIntervalMs && done < total) return;
        const { count, rate, eta } = describe(done, time);
        const filled = Math.min(barWidth, Math.floor((barWidth * done) / Math.max(total, 1)));
        io.stderr(`\r\x1b[K${label} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${count}, ${rate}, ETA ${eta}`);
      } else {
        if (time - lastShown < intervalMs) return;
        const { count, percent, rate, eta } = describe(done, time);
        io.stderr(`${label}: ${count} (${percent}), ${rate}, ETA ${eta}\n`);
      }
      lastShown = time;
      shown = true;
    },
    done() {
      if (io.interactive) {
        if (shown) io.stderr('\r\x1b[K');
        return;
      }
      const time = now();
      if (!shown && time - started < intervalMs) return;
      const { seconds, count, percent, rate } = describe(latest, time);
      const how = latest >= total ? `${count} (${percent}) in` : `stopped at ${count} (${percent}) after`;
      io.stderr(`${label}: ${how} ${formatDuration(seconds)}, ${rate}\n`);
    },
  };
}
