import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

const profile = fileURLToPath(new URL('./__fixtures__/profile-base.json', import.meta.url));

async function report(...args: string[]) {
  const io = recordingIo();
  const code = await runCli(['report', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('kreplay report of a profile', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kreplay-report-profile-'));
  });

  it('prints the kernels sorted by total duration', async () => {
    const { code, out, err } = await report(profile);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toMatch(/^NVIDIA H100 80GB HBM3 \(GH100\), capture:step \(6 launches\): 3 kernels, 6 launches, 3 metrics$/m);
    expect(out).toMatch(/^#\s+kernel\s+launches\s+total\s+mean\s+share\s+Compute \(SM\)\s+Memory$/m);
    const rows = out.split('\n').filter((line) => /^\d+ /.test(line));
    expect(rows.map((line) => line.split(/\s+/)[1])).toEqual(['ampere_sgemm_128x64_tn', expect.stringMatching(/^_ZN2at6native29vectorized/), expect.stringMatching(/^_ZN7cutlass6KernelI26softmax/)]);
    expect(rows[0]).toMatch(/^1\s+ampere_sgemm_128x64_tn\s+2\s+824\.32 us\s+412\.16 us\s+93\.7%\s+71\.4%\s+38\.1%$/);
  });

  it('writes the profile page with --html, and prints the profile as JSON with --json', async () => {
    const html = join(directory, 'profile.html');
    const written = await report(profile, '--html', html);
    expect(written.code).toBe(0);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<title>kreplay profile: capture:step (6 launches)</title>');
    expect(page).toContain('<input id="filter"');
    expect(page).toMatch(/No roofline: it needs achieved FLOP\/s and DRAM traffic per kernel/);
    const json = await report(profile, '--json');
    expect(JSON.parse(json.out)).toEqual(JSON.parse(await readFile(profile, 'utf8')));
  });

  it('refuses a malformed profile and other JSON with exit 2, saying what it expected', async () => {
    const text = JSON.parse(await readFile(profile, 'utf8')) as { dispatches: object[] };
    const malformed = join(directory, 'malformed.json');
    await writeFile(malformed, JSON.stringify({ ...text, dispatches: [{ ...text.dispatches[0], passes: 'nine' }] }));
    const bad = await report(malformed);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^kreplay: \[bench\] \[profile\] .*malformed\.json: is a malformed profile: dispatches\[0\]\.passes is "nine", not integer\. Pass a profile written by kreplay profile --json, unchanged\.\n$/);
    const foreign = join(directory, 'foreign.json');
    await writeFile(foreign, JSON.stringify({ schema: 'something-else' }));
    const other = await report(foreign);
    expect(other.code).toBe(2);
    expect(other.err).toBe(
      `kreplay: [bench] [report] ${foreign}: is neither a kreplay bench report nor a kreplay profile (schema "something-else"). Pass a kreplay bench report (schema "kreplay-bench-report", kreplay bench --out) or a kreplay profile (schema "urn:kreplay:schema:profile-report:1", kreplay profile --json).\n`,
    );
  });
});
