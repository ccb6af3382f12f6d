import { describe, expect, it } from 'vitest';
import { ArgumentError } from '@kreplay/native';
import { planBench } from './bench-plan.js';
import { benchPresetNames, benchPresets } from './bench-presets.js';
import { benchPreset, validateBenchConfiguration } from './validate-configuration.js';

const GiB = 2 ** 30;
const roomy = { deviceFreeBytes: 1000 * GiB, hostFreeBytes: 1000 * GiB, deviceIsHostMemory: false };

describe('planBench', () => {
  it('runs every variant over footprints x passes, then the side sweeps, each key once', () => {
    const plan = planBench(benchPresets.quick, roomy);
    const keys = plan.cells.map((cell) => cell.key);
    expect(new Set(keys).size).toBe(keys.length);
    const main = plan.cells.filter((cell) => cell.sweep === 'passes');
    expect(main).toHaveLength(5 * 2 * 4);
    expect(new Set(main.map((cell) => cell.variant))).toEqual(new Set(['reference', 'full/pinned', 'full/device', 'write-set', 'dirty-pages']));
    expect(plan.cells.filter((cell) => cell.sweep === 'streams').every((cell) => cell.streams === 2)).toBe(true);
    expect(plan.cells.filter((cell) => cell.sweep === 'dispatches').map((cell) => cell.dispatches)).toContain(24);
    expect(keys).toContain('dirty-pages/64MiB/p5/d6/w0.1/s1');
    expect(plan.skipped).toEqual([]);
  });

  it('skips what the machine cannot hold, with the reason, and moves side sweeps to a footprint that fits', () => {
    const small = { deviceFreeBytes: 2 * GiB, hostFreeBytes: 64 * GiB, deviceIsHostMemory: false };
    const plan = planBench(benchPresets.standard, small);
    expect(plan.cells.some((cell) => cell.footprintBytes === 4 * GiB)).toBe(false);
    const skipped = plan.skipped.find((cell) => cell.key.startsWith('full/device/4GiB'));
    expect(skipped?.reason).toMatch(/needs 8\.0 GiB of device memory, the agent has 2\.0 GiB free/);
    expect(plan.cells.filter((cell) => cell.sweep === 'streams').every((cell) => cell.footprintBytes === 256 * 2 ** 20)).toBe(true);
    expect(plan.notes.some((note) => note.includes('stream sweep ran at 256MiB'))).toBe(true);
  });

  it('counts device memory against host RAM on the host driver', () => {
    const plan = planBench(benchPresets.quick, { deviceFreeBytes: 1000 * GiB, hostFreeBytes: 0.2 * GiB, deviceIsHostMemory: true });
    expect(plan.skipped.find((cell) => cell.key.startsWith('full/device/64MiB'))?.reason).toMatch(/host RAM/);
  });

  it('sizes the large preset at 0.5x, 0.7x and 0.9x of the free device memory, staging auto variants in host RAM past the device', () => {
    const plan = planBench(benchPresets.large, { deviceFreeBytes: 100 * GiB, hostFreeBytes: 1000 * GiB, deviceIsHostMemory: false });
    const footprints = [...new Set(plan.cells.map((cell) => cell.footprintBytes))].sort((a, b) => a - b);
    expect(footprints).toEqual([50 * GiB, 70 * GiB, 90 * GiB]);
    expect(new Set(plan.cells.map((cell) => cell.variant))).toEqual(new Set(['full/pinned', 'write-set', 'dirty-pages']));
    expect(plan.cells.every((cell) => cell.sweep === 'passes')).toBe(true);
    expect(plan.cells).toHaveLength(3 * 3 * 2);
    expect(plan.skipped).toEqual([]);
  });

  it('runs the large preset small on the host driver: the arena sets the footprints', () => {
    const plan = planBench(benchPresets.large, { deviceFreeBytes: 32 * 2 ** 20, hostFreeBytes: 24 * GiB, deviceIsHostMemory: true });
    expect(Math.max(...plan.cells.map((cell) => cell.footprintBytes))).toBe(Math.floor((0.9 * 32 * 2 ** 20) / 65536) * 65536);
  });

  it('lets a baseline provider join every sweep but the stream sweep', () => {
    const plan = planBench(benchPresets.quick, roomy, ['cupti-checkpoint']);
    const checkpoint = plan.cells.filter((cell) => cell.variant === 'cupti-checkpoint');
    expect(checkpoint.length).toBeGreaterThan(8);
    expect(checkpoint.some((cell) => cell.sweep === 'streams')).toBe(false);
  });
});

describe('bench configuration', () => {
  it('accepts every preset, and the reference preset holds only the reference', () => {
    for (const name of benchPresetNames) expect(validateBenchConfiguration(benchPreset(name)).preset).toBe(name);
    expect(benchPreset('reference').variants).toEqual(['reference']);
    expect(benchPreset('scale').dispatchSweep.values).toContain(10000);
  });

  it('refuses an unknown preset and out-of-range fields with the field named', () => {
    expect(() => benchPreset('huge')).toThrow(/\[bench\] \[configuration\] unknown preset "huge"\. Choose one of quick, standard, scale, reference, large\./);
    const quick = benchPresets.quick;
    expect(() => validateBenchConfiguration({ ...quick, passes: [1, 2] })).toThrow(ArgumentError);
    expect(() => validateBenchConfiguration({ ...quick, variants: ['magic' as never] })).toThrow(/variants/);
    expect(() => validateBenchConfiguration({ ...quick, writeFraction: 0 })).toThrow(/writeFraction must be a fraction/);
    expect(() => validateBenchConfiguration({ ...quick, streamSweep: { footprintBytes: 2 ** 24, values: [1] } })).toThrow(/streamSweep\.values/);
    expect(() => validateBenchConfiguration({ ...quick, footprints: [], footprintsOfDevice: [0.5, 1] })).toThrow(/footprintsOfDevice must be a non-empty list of shares/);
    expect(() => validateBenchConfiguration({ ...quick, footprints: [] })).toThrow(/footprints must be a non-empty list/);
  });
});
