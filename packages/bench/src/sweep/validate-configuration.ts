import { benchArgumentError } from '../argument-error.js';
import type { BenchConfiguration } from './bench-configuration.js';
import { benchPresetNames, benchPresets } from './bench-presets.js';
import type { BenchPresetName } from './bench-presets.js';
import { isReplayVariantName, replayVariantNames } from './replay-variants.js';

const isWhole = (value: unknown, minimum: number) => Number.isSafeInteger(value) && (value as number) >= minimum;
const isFraction = (value: unknown) => typeof value === 'number' && value > 0 && value <= 1;
const isPositive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

function check(ok: boolean, argument: string, value: unknown, expected: string): void {
  if (!ok) throw benchArgumentError('configuration', argument, `${argument} must be ${expected}, got ${JSON.stringify(value)}`, `Fix ${argument} or start from a preset (${benchPresetNames.join(', ')})`);
}

function checkList(values: unknown, argument: string, test: (value: unknown) => boolean, expected: string): void {
  check(Array.isArray(values) && values.length > 0 && values.every(test), argument, values, `a non-empty list of ${expected}`);
}

/**
 * Checks every field of a benchmark configuration.
 * @throws ArgumentError naming the first field that is out of range.
 */
export function validateBenchConfiguration(configuration: BenchConfiguration): BenchConfiguration {
  const c = configuration;
  check(typeof c === 'object' && c !== null, 'configuration', c, 'an object');
  check(typeof c.preset === 'string', 'preset', c.preset, 'a string');
  checkList(c.variants, 'variants', isReplayVariantName, `variant names (${replayVariantNames.join(', ')})`);
  if (c.footprintsOfDevice === undefined || c.footprints.length > 0) {
    checkList(c.footprints, 'footprints', (value) => isWhole(value, 4 * 65536), 'whole byte counts >= 256 KiB');
  }
  if (c.footprintsOfDevice !== undefined) {
    checkList(c.footprintsOfDevice, 'footprintsOfDevice', (value) => typeof value === 'number' && value > 0 && value < 1, 'shares of the device memory in (0, 1)');
  }
  checkList(c.passes, 'passes', (value) => isWhole(value, 2), 'whole numbers >= 2');
  check(isWhole(c.dispatches, 1), 'dispatches', c.dispatches, 'a whole number >= 1');
  check(isFraction(c.writeFraction), 'writeFraction', c.writeFraction, 'a fraction in (0, 1]');
  check(isWhole(c.sweepPasses, 2), 'sweepPasses', c.sweepPasses, 'a whole number >= 2');
  for (const [name, sweep, test, expected] of [
    ['writeFractionSweep', c.writeFractionSweep, isFraction, 'fractions in (0, 1]'],
    ['dispatchSweep', c.dispatchSweep, (value: unknown) => isWhole(value, 1), 'whole numbers >= 1'],
    ['streamSweep', c.streamSweep, (value: unknown) => isWhole(value, 2), 'whole numbers >= 2'],
  ] as const) {
    check(typeof sweep === 'object' && sweep !== null && isWhole(sweep.footprintBytes, 4 * 65536), `${name}.footprintBytes`, sweep?.footprintBytes, 'a whole byte count >= 256 KiB');
    check(Array.isArray(sweep.values) && sweep.values.every(test), `${name}.values`, sweep.values, `a list of ${expected}`);
  }
  check(isPositive(c.runSecondsLimit), 'runSecondsLimit', c.runSecondsLimit, 'a positive number of seconds');
  check(isWhole(c.ceilingRepetitions, 1), 'ceilingRepetitions', c.ceilingRepetitions, 'a whole number >= 1');
  check(isWhole(c.ceilingBufferBytes, 4096), 'ceilingBufferBytes', c.ceilingBufferBytes, 'a whole byte count >= 4096');
  check(isPositive(c.backgroundSoloSeconds), 'backgroundSoloSeconds', c.backgroundSoloSeconds, 'a positive number of seconds');
  check(isPositive(c.rssSampleMilliseconds), 'rssSampleMilliseconds', c.rssSampleMilliseconds, 'a positive number of milliseconds');
  return c;
}

/**
 * The configuration of a named preset.
 * @throws ArgumentError for a name that is not a preset.
 */
export function benchPreset(name: string): BenchConfiguration {
  if (!(benchPresetNames as readonly string[]).includes(name)) {
    throw benchArgumentError('configuration', 'preset', `unknown preset "${name}"`, `Choose one of ${benchPresetNames.join(', ')}`);
  }
  return benchPresets[name as BenchPresetName];
}
