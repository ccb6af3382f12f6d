// counter-experiment.sh's steps, with stand-ins for the GPU machine's commands (nvidia-smi, ncu and
// the report reader, and a kreplay bundle that records how it was called): which steps run, which
// files they leave, how KEEP_CAPTURE, REPLAY=off and NCU_FIRST_RUN let one capture serve several
// calls, and how each variant gets its settings while one that fails or hangs leaves the rest to
// run. The measurements themselves need the GPU machine.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const folders = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/**
 * A bundle whose kreplay.mjs appends its arguments to calls.log; `capture -o DIR` writes a complete
 * manifest where the capture library writes it, in the capture of its process (DIR/processes/<pid>).
 */
const kreplayStandIn = `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
const args = process.argv.slice(2);
const bundle = dirname(fileURLToPath(import.meta.url));
appendFileSync(join(bundle, 'calls.log'), args.join(' ') + '\\n');
// The profile's settings as it saw them; STAND_IN_FAILS=1 makes this call fail, as a variant that crashes.
const settings = Object.keys(process.env).filter((name) => /^(KREPLAY_PROFILER_|STAND_IN_)/.test(name)).sort();
appendFileSync(join(bundle, 'settings.log'), [args[0], ...settings.map((name) => name + '=' + process.env[name])].join(' ') + '\\n');
if (process.env.STAND_IN_FAILS === '1') process.exit(1);
// STAND_IN_HANGS=1: this call never ends, as a variant that hangs.
if (process.env.STAND_IN_HANGS === '1') setInterval(() => {}, 1000);
if (args[0] === 'capture') {
  const folder = join(args[args.indexOf('-o') + 1], 'processes', String(process.pid));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'manifest.json'), JSON.stringify({ format: 'kreplay-capture', complete: true }));
}
console.log('{}');
`;

const commands = {
  'nvidia-smi': 'echo "NVIDIA H200, 580.0, 143771 MiB"',
  // ncu --export REPORT ...: a report file, as ncu leaves one.
  ncu: 'if [ "$1" = --version ]; then echo "Version 2025.3.1.0"; exit 0; fi\n' +
    'while [ $# -gt 0 ]; do [ "$1" = --export ] && echo report > "$2.ncu-rep"; shift; done',
  // ncu-report-csv.py REPORT METRICS: one launch of one kernel.
  python3: 'printf \'"ID","Kernel Name","gpu__time_duration.sum"\\n"","","ns"\\n"0","k","1000"\\n\'',
};

function machine() {
  const root = mkdtempSync(join(tmpdir(), 'counter-experiment-'));
  folders.push(root);
  const bin = join(root, 'bin');
  const bundle = join(root, 'bundle');
  mkdirSync(bin);
  mkdirSync(bundle);
  for (const [name, body] of Object.entries(commands)) {
    writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  writeFileSync(join(bundle, 'kreplay.mjs'), kreplayStandIn);
  // `within` (seconds): the script is stopped then, as the GPU machine's limit stops a call.
  const run = (settings, within) => {
    const [command, ...prefix] = within ? ['timeout', String(within), 'bash'] : ['bash'];
    return spawnSync(command, [...prefix, join(here, 'counter-experiment.sh')], {
      encoding: 'utf8',
      env: {
        // The profiler settings of this shell are left out: each test gives its own.
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('KREPLAY_PROFILER_'))),
        PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH}`,
        BUNDLE: bundle,
        CAPTURE: join(root, 'capture'),
        PROGRAM: 'true',
        LAUNCHES: '3',
        NCU_SET: 'sol',
        VARIANTS: 'warm:default:sol',
        ...settings,
      },
    });
  };
  const logLines = (name) => readFileSync(join(bundle, name), 'utf8').trim().split('\n');
  const lines = () => logLines('calls.log');
  const calls = () => lines().map((line) => line.split(' ')[0]);
  const settings = () => logLines('settings.log');
  return { root, run, calls, lines, settings };
}

describe('counter-experiment.sh', () => {
  it('captures, replays, profiles each variant and runs ncu, then removes the capture', () => {
    const { root, run, calls } = machine();
    const out = join(root, 'out');
    const result = run({ OUT: out, NCU_RUNS: '2', NCU_REPLAY_RUNS: '1', NCU_REPLAY_CACHE_CONTROL: 'none' });
    expect(result.status, result.stderr).toBe(0);
    expect(calls()).toEqual(['capture', 'replay', 'profile']);
    expect(['ncu-1.csv', 'ncu-2.csv', 'ncu-replay-1.csv'].every((name) => existsSync(join(out, name)))).toBe(true);
    // What each ncu run measured, for pool-runs.mjs: the program without this machine's path, and the options.
    expect(readFileSync(join(out, 'ncu-runs.txt'), 'utf8').trim().split('\n')).toEqual([
      'ncu-1.csv: set sol --profile-from-start off --clock-control none --cache-control all --launch-count 3 -- true',
      'ncu-2.csv: set sol --profile-from-start off --clock-control none --cache-control all --launch-count 3 -- true',
      'ncu-replay-1.csv: set sol --clock-control none --cache-control none --kernel-name regex:^(?!kreplay_) --launch-count 3 -- kreplay replay of a capture of true --every-launch',
    ]);
    expect(existsSync(join(out, 'warm', 'profile.json'))).toBe(true);
    expect(existsSync(join(root, 'capture'))).toBe(false);
  });

  it('keeps the capture with KEEP_CAPTURE and uses it in the next call, which numbers its ncu runs on', () => {
    const { root, run, calls } = machine();
    const out = join(root, 'out');
    expect(run({ OUT: out, NCU_RUNS: '1', KEEP_CAPTURE: '1' }).status).toBe(0);
    expect(readdirSync(join(root, 'capture', 'processes')).map((pid) => existsSync(join(root, 'capture', 'processes', pid, 'manifest.json')))).toEqual([true]);
    const second = run({ OUT: out, NCU_RUNS: '2', NCU_FIRST_RUN: '2', KEEP_CAPTURE: '1', REPLAY: 'off' });
    expect(second.status, second.stderr).toBe(0);
    expect(calls()).toEqual(['capture', 'replay', 'profile', 'profile']);
    expect(['ncu-1.csv', 'ncu-2.csv', 'ncu-3.csv'].every((name) => existsSync(join(out, name)))).toBe(true);
    const timings = readFileSync(join(out, 'timings.txt'), 'utf8');
    expect(timings).toMatch(/^capture [\d.]+$/m);
    expect(timings).toContain('capture reused');
    expect(readFileSync(join(out, 'ncu-values.txt'), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('captures every launch of the step, or its first CAPTURE_LAUNCHES', () => {
    const { root, run, lines } = machine();
    expect(run({ OUT: join(root, 'out'), NCU_RUNS: '0', REPLAY: 'off' }).status).toBe(0);
    expect(run({ OUT: join(root, 'out'), NCU_RUNS: '0', REPLAY: 'off', CAPTURE_LAUNCHES: '70' }).status).toBe(0);
    const captures = lines().filter((line) => line.startsWith('capture '));
    expect(captures[0]).toContain('--every-launch');
    expect(captures[1]).toContain('--launch-count 70');
    expect(captures[1]).not.toContain('--every-launch');
  });

  it('captures again when the kept capture was made of another program or selection', () => {
    const { root, run, calls } = machine();
    const out = join(root, 'out');
    const kept = { OUT: out, NCU_RUNS: '0', KEEP_CAPTURE: '1', REPLAY: 'off' };
    expect(run(kept).status).toBe(0);
    expect(run({ ...kept, PROGRAM: 'true --width 1024' }).status).toBe(0);
    expect(run({ ...kept, PROGRAM: 'true --width 1024' }).status).toBe(0);
    expect(run({ ...kept, PROGRAM: 'true --width 1024', CAPTURE_LAUNCHES: '70' }).status).toBe(0);
    expect(calls()).toEqual(['capture', 'profile', 'capture', 'profile', 'profile', 'capture', 'profile']);
    expect(readFileSync(join(root, 'capture.made-of'), 'utf8').trim()).toBe('true --width 1024 --launch-count 70');
  });

  it('captures again when the kept capture is not complete', () => {
    const { root, run, calls } = machine();
    mkdirSync(join(root, 'capture'));
    writeFileSync(join(root, 'capture', 'manifest.json'), JSON.stringify({ complete: false }));
    expect(run({ OUT: join(root, 'out'), NCU_RUNS: '0', KEEP_CAPTURE: '1', REPLAY: 'off' }).status).toBe(0);
    expect(calls()).toEqual(['capture', 'profile']);
  });

  it('gives each variant its settings and flags, and goes on past a variant that fails', () => {
    const { root, run, lines, settings } = machine();
    const out = join(root, 'out');
    const variants = [
      'kib64:default:sol:KREPLAY_PROFILER_ICACHE_KIB=64',
      'broken:default:sol:STAND_IN_FAILS=1',
      'cupti:full:sol:KREPLAY_PROFILER_REPLAY=kernel,--warm-runs=0',
    ];
    const result = run({ OUT: out, NCU_RUNS: '1', REPLAY: 'off', VARIANTS: variants.join(' ') });
    expect(result.status, result.stderr).toBe(0);
    const profiles = lines().filter((line) => line.startsWith('profile '));
    expect(profiles).toHaveLength(3);
    expect(profiles[0]).not.toContain('--strategy');
    expect(profiles[2]).toContain('--strategy full --tier device --warm-runs=0');
    expect(settings()).toEqual([
      'capture',
      'profile KREPLAY_PROFILER_ICACHE_KIB=64',
      'profile STAND_IN_FAILS=1',
      'profile KREPLAY_PROFILER_REPLAY=kernel',
    ]);
    // The failure is recorded, and what came after it ran: the next variant and ncu.
    expect(readFileSync(join(out, 'timings.txt'), 'utf8')).toMatch(/^profile-broken exited 1$/m);
    expect(['kib64', 'broken', 'cupti'].every((name) => existsSync(join(out, name, 'profile.json')))).toBe(true);
    expect(existsSync(join(out, 'ncu-1.csv'))).toBe(true);
  });

  it('stops a variant that runs past VARIANT_TIMEOUT and goes on to the next and to ncu', () => {
    const { root, run, calls } = machine();
    const out = join(root, 'out');
    const variants = 'hangs:default:sol:STAND_IN_HANGS=1 warm:default:sol';
    const result = run({ OUT: out, NCU_RUNS: '1', REPLAY: 'off', VARIANTS: variants, VARIANT_TIMEOUT: '5' });
    expect(result.status, result.stderr).toBe(0);
    expect(calls()).toEqual(['capture', 'profile', 'profile']);
    expect(readFileSync(join(out, 'timings.txt'), 'utf8')).toMatch(/^profile-hangs exited 124$/m);
    expect(existsSync(join(out, 'ncu-1.csv'))).toBe(true);
  });

  it('packs OUT into ARCHIVE after every step, so that a run stopped at its limit keeps what finished', () => {
    const { root, run } = machine();
    const out = join(root, 'out');
    const archive = join(root, 'back', 'out.tgz');
    const packed = () => spawnSync('tar', ['tzf', archive], { encoding: 'utf8' }).stdout.trim().split('\n');
    const whole = run({ OUT: out, ARCHIVE: archive, NCU_RUNS: '1', REPLAY: 'off' });
    expect(whole.status, whole.stderr).toBe(0);
    expect(packed()).toEqual(expect.arrayContaining(['out/timings.txt', 'out/machine.txt', 'out/warm/profile.json', 'out/ncu-1.csv']));
    expect(packed().some((name) => name.endsWith('.ncu-rep'))).toBe(false);
    // The second variant hangs and the call's limit stops the script: the first variant's profile came back.
    rmSync(archive);
    const stopped = run({ OUT: join(root, 'stopped'), ARCHIVE: archive, NCU_RUNS: '1', REPLAY: 'off', VARIANTS: 'warm:default:sol hangs:default:sol:STAND_IN_HANGS=1' }, 10);
    expect(stopped.status).toBe(124);
    expect(packed()).toEqual(expect.arrayContaining(['stopped/timings.txt', 'stopped/warm/profile.json']));
    expect(packed()).not.toContain('stopped/ncu-1.csv');
    expect(existsSync(`${archive}.partial`)).toBe(false);
  });

  it('refuses an ARCHIVE inside OUT, which would pack itself', () => {
    const { root, run } = machine();
    const out = join(root, 'out');
    const result = run({ OUT: out, ARCHIVE: join(out, 'out.tgz'), NCU_RUNS: '1' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('lies inside OUT');
    expect(existsSync(join(root, 'bundle', 'calls.log'))).toBe(false);
  });
});
