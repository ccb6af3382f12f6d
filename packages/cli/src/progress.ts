import type { CliIo } from './cli-io.js';

/** A progress line on stderr for long work; silent when stderr is not a terminal. */
export interface Progress {
  update(done: number): void;
  done(): void;
}

/** Draws `label [####....] done/total` at most every 100 ms. */
export function createProgress(io: CliIo, label: string, total: number): Progress {
  if (!io.interactive) return { update() {}, done() {} };
  let lastDraw = 0;
  let drawn = false;
  return {
    update(done) {
      const now = Date.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      drawn = true;
      const width = 30;
      const filled = Math.round((width * done) / Math.max(total, 1));
      io.stderr(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    done() {
      if (drawn) io.stderr('\r\x1b[K');
    },
  };
}
