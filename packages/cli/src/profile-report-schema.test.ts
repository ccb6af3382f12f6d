import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileReportProblem, profileReportSchemaId } from '@kreplay/bench';
import type { ProfileDocument } from '@kreplay/bench';
import { readCaptureFolder } from '@kreplay/native';
import { writeTestCapture } from '@kreplay/native/test';
import { describe, expect, it } from 'vitest';
import type { ProfileReport } from './commands/profile-command.js';
import { withLaunchShapes } from './profile-launch-shapes.js';
import { findSections, resolveSections } from './sections/resolve-sections.js';

/** A profile as `kreplay profile capture: --json` fills it (CUPTI needs an NVIDIA device: the values are set here). */
function capturedProfile(): ProfileReport {
  return {
    schema: profileReportSchemaId,
    schemaVersion: 1,
    driver: 'cuda',
    device: 'NVIDIA H200',
    chip: 'GH100',
    workload: 'capture:step (2 launches)',
    strategy: 'dirty-pages',
    measure: 'kernel',
    cacheControl: 'all',
    range: 1,
    passes: 9,
    warmRuns: 2,
    samples: 3,
    conditions: { l2Flush: 'write-discard', instructionCache: 'evict', cacheControl: 'all', warmRuns: 2, samples: 3 },
    metrics: ['gpu__time_duration.sum'],
    architecture: 'sm_90',
    sections: resolveSections(findSections(['SpeedOfLight'], undefined), 90),
    commandLineMetrics: ['gpu__time_duration.sum'],
    units: { 'gpu__time_duration.sum': 'nanosecond' },
    setupMs: 700,
    wallMs: 120,
    dispatches: [0, 1].map((dispatch) => ({
      dispatch,
      kernel: 'axpy',
      range: null,
      replayed: true,
      passes: 9,
      wallMs: 60,
      bytesCopied: 4096,
      metrics: { 'gpu__time_duration.sum': 3232 + dispatch },
      launch: { function: 'axpy', dynamicSharedBytes: 0, clusterDims: null, registersPerThread: 16 },
    })),
    ranges: [],
  };
}

describe('the JSON of kreplay profile', () => {
  it('is a profile document: it carries its schema id and follows the profile schema, with its sections and launches besides', () => {
    const report: ProfileDocument = capturedProfile();
    expect(report.schema).toBe('urn:kreplay:schema:profile-report:1');
    expect(profileReportProblem(JSON.parse(JSON.stringify(report)))).toBeNull();
  });

  it('gives each captured launch its grid and block, which compare --match grid matches by', async () => {
    const directory = writeTestCapture(join(mkdtempSync(join(tmpdir(), 'kreplay-shapes-')), 'capture'), {
      launches: [0, 1].map(() => ({ function: 'axpy', module: new Uint8Array([0]), grid: [16, 2, 1] as const, block: [256, 1, 1] as const, parameters: new Uint8Array(0), memory: [] })),
    });
    const shaped = withLaunchShapes(capturedProfile(), await readCaptureFolder(directory));
    expect(shaped.dispatches.map((row) => [row.grid, row.block])).toEqual([
      [[16, 2, 1], [256, 1, 1]],
      [[16, 2, 1], [256, 1, 1]],
    ]);
    expect(profileReportProblem(JSON.parse(JSON.stringify(shaped)))).toBeNull();
  });
});
