import { describe, expect, it } from 'vitest';
import { exampleProfile, syntheticRooflineProfile } from '../test-support/example-profiles.js';
import { parseProfileReport, readProfileReport } from './parse-profile-report.js';
import { ProfileReportError } from './profile-report-error.js';

const text = (value: unknown) => JSON.stringify(value);

function rejection(source: string): ProfileReportError {
  try {
    parseProfileReport(source, 'p.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileReportError);
    return error as ProfileReportError;
  }
  throw new Error('the profile was accepted');
}

describe('parseProfileReport', () => {
  it('reads a profile of an H200 capture and one with roofline metrics and launch shapes', () => {
    expect(parseProfileReport(text(exampleProfile()), 'h200.json').dispatches).toHaveLength(148);
    expect(parseProfileReport(text(syntheticRooflineProfile()), 'roofline.json').dispatches[0]!.grid).toEqual([132, 4, 1]);
  });

  it('accepts what the profiler records besides: measurement conditions, notes, ranges of captured sequences, range auto, NaN values', () => {
    const profile = syntheticRooflineProfile();
    const [first, second] = profile.dispatches;
    const extended = {
      ...profile,
      range: 'auto',
      conditions: { cacheControl: 'all', l2Flush: 'write-discard', clockControl: 'none', warmRuns: 2 },
      notes: ['launch 7 starts a sequence: its predecessor is not in the capture'],
      ranges: [{ first: 0, dispatches: 2, launches: [0, 1], replayed: true, passes: 12, wallMs: 3.5, wallMsPerDispatch: 1.75, bytesCopied: 4096, bytesBefore: 0, bytesPrepared: 8192, tier: 'device', bytes: { deviceToDevice: 4096 } }],
      dispatches: [{ ...first!, range: 0, metrics: { ...first!.metrics, 'sm__throughput.avg.pct_of_peak_sustained_elapsed': null } }, { ...second!, range: 0 }, ...profile.dispatches.slice(2)],
    };
    expect(parseProfileReport(text(extended), 'extended.json').conditions).toMatchObject({ l2Flush: 'write-discard' });
  });

  it('refuses text that is not JSON, JSON that is not a profile, and a profile of another version', () => {
    expect(rejection('{"schema": ').message).toMatch(/^\[bench\] \[profile\] p\.json: is not JSON \(.*\)\. Pass a profile written by kreplay profile --json\.$/);
    expect(rejection(text({ schema: 'kreplay-bench-report', version: 1 })).message).toBe(
      '[bench] [profile] p.json: is not a kreplay profile (schema "kreplay-bench-report", not "urn:kreplay:schema:profile-report:1"). Pass a profile written by kreplay profile --json.',
    );
    const { schema: _schema, schemaVersion: _version, ...older } = exampleProfile();
    expect(rejection(text(older)).message).toContain('p.json: is not a kreplay profile (no schema field, not "urn:kreplay:schema:profile-report:1")');
    expect(rejection(text({ ...exampleProfile(), schema: 'urn:kreplay:schema:profile-report:2', schemaVersion: 2 })).message).toBe(
      '[bench] [profile] p.json: is a profile of version 2 (urn:kreplay:schema:profile-report:2); this kreplay reads version 1. Use the kreplay version that wrote it, or profile again.',
    );
    const { schemaVersion: _missing, ...unversioned } = exampleProfile();
    expect(rejection(text(unversioned)).message).toContain('p.json: is a profile with no schemaVersion field (urn:kreplay:schema:profile-report:1); this kreplay reads version 1.');
  });

  it('names the field of a malformed profile', () => {
    const profile = syntheticRooflineProfile();
    const [row] = profile.dispatches;
    const withRow = (changed: object) => text({ ...profile, dispatches: [{ ...row!, ...changed }] });
    expect(rejection(withRow({ wallMs: -1 })).message).toContain('p.json: is a malformed profile: dispatches[0].wallMs is negative (-1). Pass a profile written by kreplay profile --json, unchanged.');
    expect(rejection(withRow({ metrics: { 'gpu__time_duration.sum': '3 us' } })).message).toContain('dispatches[0].metrics.gpu__time_duration.sum is "3 us", not number or null');
    expect(rejection(withRow({ grid: [1, 1] })).message).toContain('dispatches[0].grid must NOT have fewer than 3 items');
    expect(rejection(withRow({ range: 2 })).message).toContain('dispatches[0].range is 2, and ranges has 0 entries');
    const { passes: _passes, ...withoutPasses } = profile;
    expect(rejection(text(withoutPasses)).message).toContain('passes is missing');
    expect(rejection(text({ ...profile, measure: 'everything' })).message).toContain('measure is "everything", not one of "kernel", "dispatch"');
  });

  it('names a missing file', async () => {
    await expect(readProfileReport('/nonexistent/p.json')).rejects.toThrow('[bench] [profile] /nonexistent/p.json: no such file. Check the path of the profile.');
  });
});
