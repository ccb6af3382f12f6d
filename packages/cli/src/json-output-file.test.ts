import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

const root = mkdtempSync(join(tmpdir(), 'kreplay-json-output-'));

// -o FILE writes the command's JSON report besides what it prints; as ncu, an existing file is kept
// unless -f (--force-overwrite) is given.
describe('-o and -f on replay, calibrate and profile', () => {
  it('replay -o writes the JSON report and prints its summary; again it refuses without -f (exit 2) and replaces with -f', async () => {
    const out = join(root, 'replay.json');
    const replay = ['replay', '--driver', 'host', '--footprint', '1MiB', '--dispatches', '2', '--passes', '2'];
    const io = recordingIo();
    expect(await runCli([...replay, '-o', out], io)).toBe(0);
    expect(io.out()).toMatch(/^dirty-pages on host/);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ strategy: 'dirty-pages', dispatches: 2 });
    const again = recordingIo();
    expect(await runCli([...replay, '-o', out], again)).toBe(2);
    expect(again.err()).toBe(`kreplay: [cli] [replay] -o ${out} exists, and is kept unless -f (--force-overwrite) is given. Pass -f to replace it, or choose another file.\n`);
    expect(again.out()).toBe('');
    expect(await runCli([...replay, '--passes', '3', '-o', out, '-f'], recordingIo())).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ passes: 3 });
  });

  it('calibrate -o writes what --json prints', async () => {
    const out = join(root, 'calibrate.json');
    const io = recordingIo();
    expect(await runCli(['calibrate', '--driver', 'host', '--plan-bytes', '1MiB', '--json', '-o', out], io)).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(io.out()));
    const again = recordingIo();
    expect(await runCli(['calibrate', '--driver', 'host', '--plan-bytes', '1MiB', '-o', out], again)).toBe(2);
    expect(again.err()).toBe(`kreplay: [cli] [calibrate] -o ${out} exists, and is kept unless -f (--force-overwrite) is given. Pass -f to replace it, or choose another file.\n`);
  });

  it('refuses -f without -o (exit 2): there is no file for it to replace', async () => {
    const io = recordingIo();
    expect(await runCli(['profile', '--metrics', 'gpu__time_duration.sum', '-f'], io)).toBe(2);
    expect(io.err()).toMatch(/^kreplay: \[cli\] \[profile\] -f \(--force-overwrite\) lets -o replace an existing file, and there is no -o\. Pass -o FILE, or leave out -f/);
  });

  it('profile checks -o before the driver opens: an existing file without -f, a directory (exit 2)', async () => {
    const existing = join(root, 'profile.json');
    writeFileSync(existing, '{}');
    const io = recordingIo();
    expect(await runCli(['profile', '--metrics', 'gpu__time_duration.sum', '--driver', 'host', '-o', existing], io)).toBe(2);
    expect(io.err()).toMatch(/^kreplay: \[cli\] \[profile\] -o .*profile\.json exists, and is kept unless -f \(--force-overwrite\) is given/);
    expect(readFileSync(existing, 'utf8')).toBe('{}');
    const directory = recordingIo();
    expect(await runCli(['profile', '--metrics', 'gpu__time_duration.sum', '--driver', 'host', '-o', root], directory)).toBe(2);
    expect(directory.err()).toMatch(/--out .* is a directory/);
  });
});
