import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectTaskReports } from './collect-task-reports.js';
import { defaultSlurmTools } from './slurm-commands.js';
import { submitBenchArrays } from './submit-bench-arrays.js';
import { waitForArrays } from './wait-for-arrays.js';

function clusterAvailable(): boolean {
  if (!process.env['SLURM_CONF']) return false;
  try {
    return execFileSync('sinfo', ['-h', '-o', '%T'], { encoding: 'utf8' }).trim().length > 0;
  } catch {
    return false;
  }
}

// A stand-in bundle: task 0 writes its report, task 1 fails, task 2 sleeps (to be cancelled).
const fakeBundleScript = `
const out = process.argv[process.argv.indexOf('--out') + 1];
const task = Number(process.env.SLURM_ARRAY_TASK_ID);
if (task === 1) { console.error('benchmark exploded'); process.exit(3); }
if (task === 2) { setTimeout(() => {}, 600000); }
else require('node:fs').writeFileSync(out, JSON.stringify({ task, args: process.argv.slice(2) }));
`;

const root = mkdtempSync(join(tmpdir(), 'kreplay-slurm-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!clusterAvailable())('job arrays on a real Slurm cluster', () => {
  const bundleDirectory = join(root, 'bundle');
  execFileSync('mkdir', ['-p', bundleDirectory]);
  writeFileSync(join(bundleDirectory, 'kreplay.mjs'), `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${fakeBundleScript}`);
  writeFileSync(join(bundleDirectory, 'kreplay.node'), '');
  const plan = {
    benchArguments: ['--preset', 'quick', '--driver', 'host'],
    nodes: 3,
    partitions: [],
    outDirectory: join(root, 'out'),
    bundleDirectory,
    nodeExecutable: process.execPath,
  };

  it('collects the reports that arrived and explains the failed and cancelled tasks', async () => {
    const arrays = await submitBenchArrays(plan, defaultSlurmTools);
    expect(arrays).toHaveLength(1);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const states = await waitForArrays(arrays, defaultSlurmTools, { timeoutMilliseconds: 0 });
      if (states.get(arrays[0]!)!.some((task) => task.taskId === 2 && task.state === 'RUNNING')) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    execFileSync('scancel', [`${arrays[0]!.jobId}_2`]);
    const states = await waitForArrays(arrays, defaultSlurmTools, { pollMilliseconds: 300, timeoutMilliseconds: 60_000 });
    const collection = collectTaskReports(states);
    expect(collection.complete).toBe(false);
    expect(collection.arrived.map((report) => report.taskId)).toEqual([0]);
    expect(JSON.parse(readFileSync(collection.arrived[0]!.path, 'utf8')).args).toEqual(['bench', '--preset', 'quick', '--driver', 'host', '--out', collection.arrived[0]!.path]);
    const [failed, cancelled] = collection.missing;
    expect(failed).toMatchObject({ taskId: 1, state: 'FAILED', exitCode: '3:0' });
    expect(failed!.reason).toMatch(/benchmark exploded/);
    expect(cancelled).toMatchObject({ taskId: 2, state: 'CANCELLED' });
  }, 120_000);

  it('refuses an unknown partition, naming the ones the cluster has', async () => {
    await expect(submitBenchArrays({ ...plan, partitions: ['h100-nowhere'] }, defaultSlurmTools)).rejects.toThrow(
      /unknown partition h100-nowhere; the cluster has \S+/,
    );
  });
});

describe('job arrays without Slurm', () => {
  it('says how to get sbatch when it is missing', async () => {
    const tools = { ...defaultSlurmTools, sinfo: join(root, 'no-such-sinfo') };
    const bundleDirectory = join(root, 'bundle-missing-tools');
    execFileSync('mkdir', ['-p', bundleDirectory]);
    writeFileSync(join(bundleDirectory, 'kreplay.mjs'), '');
    writeFileSync(join(bundleDirectory, 'kreplay.node'), '');
    const plan = { benchArguments: [], nodes: 1, partitions: [], outDirectory: root, bundleDirectory, nodeExecutable: process.execPath };
    await expect(submitBenchArrays(plan, tools)).rejects.toThrow(/was not found on PATH.*slurm-client/);
  });

  it('says how to build the bundle when it is missing', async () => {
    const plan = { benchArguments: [], nodes: 1, partitions: [], outDirectory: root, bundleDirectory: join(root, 'nothing'), nodeExecutable: process.execPath };
    await expect(submitBenchArrays(plan, defaultSlurmTools)).rejects.toThrow(/pnpm --filter @kreplay\/cli bundle/);
  });
});
