// The metrics a summary judges: those a METRICS setting names (sol: the SpeedOfLight list of
// speed-of-light-metrics.sh, or a comma-separated list), each one the profile measured.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `named` (sol, a comma-separated list, or empty for every measured metric) resolved against the
 * metrics the profile `measured`.
 * @throws {Error} naming the metrics the profile did not measure.
 */
export function judgedMetrics(named, measured) {
  if (!named) return measured;
  const list = named === 'sol'
    ? readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'speed-of-light-metrics.sh'), 'utf8').match(/^metrics=(.*)$/m)[1].split(',')
    : named.split(',').filter(Boolean);
  const missing = list.filter((metric) => !measured.includes(metric));
  if (missing.length > 0) throw new Error(`METRICS names ${missing.join(', ')}, which the profile did not measure; it measured ${measured.join(', ')}.`);
  return list;
}
