import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
const elsewhere = mkdtempSync(join(tmpdir(), 'kreplay-bundle-'));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

describe('the self-contained bundle', () => {
  it('runs from a folder holding only kreplay.mjs, kreplay.node and chart.umd.min.js', async () => {
    await run(process.execPath, ['scripts/bundle.mjs'], { cwd: packageDirectory });
    cpSync(join(packageDirectory, 'bundle'), elsewhere, { recursive: true });
    const info = await run(process.execPath, [join(elsewhere, 'kreplay.mjs'), 'info', '--driver', 'host', '--json'], { cwd: elsewhere });
    expect(JSON.parse(info.stdout)).toMatchObject({ driver: 'host', agents: [{ id: 0, driver: 'host' }] });
    const version = await run(process.execPath, [join(elsewhere, 'kreplay.mjs'), '--version'], { cwd: elsewhere });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 60_000);
});
