import type { BenchConfiguration } from './bench-configuration.js';
import { replayVariantNames } from './replay-variants.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const passSweep = [2, 3, 5, 8] as const;

/** The named presets. */
export const benchPresetNames = ['quick', 'standard', 'scale', 'reference', 'large'] as const;

/** A preset's name. */
export type BenchPresetName = (typeof benchPresetNames)[number];

const standard: BenchConfiguration = {
  preset: 'standard',
  variants: replayVariantNames,
  footprints: [16 * MiB, 256 * MiB, 1 * GiB, 4 * GiB],
  passes: passSweep,
  dispatches: 12,
  writeFraction: 0.01,
  sweepPasses: 5,
  writeFractionSweep: { footprintBytes: 1 * GiB, values: [0.001, 0.1, 0.5] },
  dispatchSweep: { footprintBytes: 16 * MiB, values: [1, 100, 1000] },
  streamSweep: { footprintBytes: 1 * GiB, values: [2, 4] },
  runSecondsLimit: 20,
  ceilingRepetitions: 5,
  ceilingBufferBytes: 4 * GiB,
  backgroundSoloSeconds: 1,
  rssSampleMilliseconds: 10,
};

/** The presets' configurations. */
export const benchPresets: Readonly<Record<BenchPresetName, BenchConfiguration>> = {
  /** CI on the host driver: two small footprints, every variant, under a minute on two cores. */
  quick: {
    ...standard,
    preset: 'quick',
    footprints: [16 * MiB, 64 * MiB],
    dispatches: 6,
    writeFractionSweep: { footprintBytes: 64 * MiB, values: [0.1] },
    dispatchSweep: { footprintBytes: 16 * MiB, values: [1, 24] },
    streamSweep: { footprintBytes: 64 * MiB, values: [2] },
    runSecondsLimit: 4,
    ceilingRepetitions: 3,
    ceilingBufferBytes: 256 * MiB,
    backgroundSoloSeconds: 0.25,
    rssSampleMilliseconds: 5,
  },
  /** A GPU's working range: 16 MiB to 4 GiB, up to 1000 dispatches, up to 4 streams. */
  standard,
  /** The real range: up to 64 GiB (bounded by the machine), 10^4 dispatches, 8 streams. */
  scale: {
    ...standard,
    preset: 'scale',
    footprints: [16 * MiB, 1 * GiB, 8 * GiB, 32 * GiB, 64 * GiB],
    dispatches: 10,
    writeFractionSweep: { footprintBytes: 8 * GiB, values: [0.001, 0.1, 0.5] },
    dispatchSweep: { footprintBytes: 16 * MiB, values: [1, 100, 1000, 10000] },
    streamSweep: { footprintBytes: 8 * GiB, values: [2, 4, 8] },
    runSecondsLimit: 30,
  },
  /** The reference design alone over the standard sweep, with the same baselines. */
  reference: { ...standard, preset: 'reference', variants: ['reference'] },
  /**
   * Footprints of 0.5x, 0.7x and 0.9x of the free device memory, where snapshots no longer fit the
   * spare device memory and span tiers; few dispatches (the first one, which builds the staging,
   * weighs). No side sweeps. On the host driver its size is the arena's (`--device-memory`).
   */
  large: {
    ...standard,
    preset: 'large',
    variants: ['full/pinned', 'write-set', 'dirty-pages'],
    footprints: [],
    footprintsOfDevice: [0.5, 0.7, 0.9],
    passes: [2, 5],
    dispatches: 4,
    writeFractionSweep: { footprintBytes: 16 * MiB, values: [] },
    dispatchSweep: { footprintBytes: 16 * MiB, values: [] },
    streamSweep: { footprintBytes: 16 * MiB, values: [] },
    runSecondsLimit: 60,
  },
};
