import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from '@kreplay/native';
import { writeTestCapture, type TestCaptureLaunch } from '@kreplay/native/test';
import { launchMetric, withCapturedLaunches } from './profile-launch.js';

const root = mkdtempSync(join(tmpdir(), 'kreplay-profile-launch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A PTX module: no cubin says the kernels' registers.
const ptx = new TextEncoder().encode('.version 8.0\n.target sm_90\n.address_size 64\n');
function launch(name: string): TestCaptureLaunch {
  return { function: name, module: ptx, grid: [4, 1, 1], block: [128, 1, 1], parameters: new Uint8Array(0), memory: [] };
}

describe('withCapturedLaunches', () => {
  it("gives each launch the driver's register count of its function where the replay loaded it, and none where nothing says", async () => {
    const folder = await readCaptureFolder(writeTestCapture(join(root, 'two'), { formatVersion: 2, launches: [launch('gemm'), launch('scale'), launch('gemm')] }));
    const rows = [{ dispatch: 0 }, { dispatch: 1 }, { dispatch: 2 }];
    const loaded = await withCapturedLaunches(rows, folder, new Map([['gemm', 24]]));
    expect(loaded.map((row) => row.launch?.registersPerThread)).toEqual([24, null, 24]);
    expect(launchMetric('launch__registers_per_thread', loaded[0]!)).toEqual({ value: 24, unit: 'register/thread' });
    expect(launchMetric('launch__registers_per_thread', loaded[1]!)).toBeUndefined();
    const unloaded = await withCapturedLaunches(rows, folder);
    expect(unloaded.map((row) => row.launch?.registersPerThread)).toEqual([null, null, null]);
  });
});
