// run.sh without a GPU: its refusals of what it is given, before anything runs, and one whole run
// with stand-ins on PATH (nvidia-smi, ncu writing a report for __fixtures__/ncu_report.py of the
// capture acceptance, a python that prints each program's line, and a kreplay bundle that answers
// with the files of __fixtures__/run-folder-fixture.mjs), so that the commands it runs and the
// folder it leaves for summarize.mjs are checked.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardKernels, writeRunFolder } from './__fixtures__/run-folder-fixture.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'graph-programs-run-'));
const bin = join(root, 'bin');
const bundle = join(root, 'bundle');
const answers = join(root, 'answers');
const log = join(root, 'commands.log');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function executable(path, text) {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

beforeAll(() => {
  mkdirSync(bin);
  mkdirSync(bundle);
  writeRunFolder(answers);
  const kernel = (kernel) => ({ name: { demangled: kernel.ncu, function: kernel.ncu }, metrics: { 'gpu__time_duration.sum': kernel.ns, 'sm__throughput.avg.pct_of_peak_sustained_elapsed': 50 } });
  writeFileSync(join(root, 'ncu-node.json'), JSON.stringify({ ranges: [[...forwardKernels, ...forwardKernels].map(kernel)] }));
  writeFileSync(join(root, 'ncu-graph.json'), JSON.stringify({ ranges: [[0, 1].map(() => ({ name: { demangled: 'graph', function: 'graph' }, metrics: { 'gpu__time_duration.sum': 20000 } }))] }));
  executable(join(bin, 'nvidia-smi'), '#!/bin/sh\necho "NVIDIA H100 80GB HBM3, 580.95.05, 81559 MiB"\n');
  executable(
    join(bin, 'ncu'),
    `#!/bin/bash
[ "$1" = --version ] && { echo "Version 2025.3.1.0"; exit 0; }
echo "ncu $*" >> ${log}
while [ $# -gt 0 ]; do
  case $1 in --export) report=$2; shift ;; --graph-profiling) mode=$2; shift ;; esac
  shift
done
cp ${root}/ncu-$mode.json "$report.ncu-rep"
`,
  );
  // The programs' stand-in: their JSON line (from the answers' program.json), and torch's version for machine.txt.
  executable(
    join(bin, 'fake-python'),
    `#!/bin/bash
echo "python $*" >> ${log}
case $1 in
  -c) echo "torch 2.11.0" ;;
  *cuda_graph_forward.py) cat ${answers}/forward/program.json; [ -n "\${SLOW:-}" ] && sleep 2.2; true ;;
  *nccl_allreduce.py) cat ${answers}/nccl/program.json ;;
  *) exit 3 ;;
esac
`,
  );
  // kreplay: capture runs the program and leaves a folder; each command answers with the answers' file of its program.
  executable(
    join(bundle, 'kreplay.mjs'),
    `import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, 'kreplay ' + args.join(' ') + '\\n');
const value = (flag) => args[args.indexOf(flag) + 1];
const graph = args.includes('--graph-profiling') ? '-graph' : '';
const capture = args[0] === 'capture' ? value('-o') : args[0] === 'replay' ? value('--capture') : args[1].slice('capture:'.length);
const program = capture.split('/').at(-2);
const answer = (file) => readFileSync(${JSON.stringify(answers)} + '/' + program + '/' + file, 'utf8').trim().split('\\n').at(-1) + '\\n';
if (args[0] === 'capture') {
  const command = args.slice(args.indexOf('--') + 1);
  spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
  mkdirSync(capture, { recursive: true });
  writeFileSync(capture + '/manifest.json', '{}');
  process.stdout.write(answer('capture.json'));
} else {
  process.stdout.write(answer(args[0] + graph + '.json'));
}
`,
  );
});

function run(env) {
  return spawnSync('bash', [join(here, 'run.sh')], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, PYTHON: 'fake-python', PYTHONPATH: join(here, '..', 'capture-acceptance', '__fixtures__'), BUNDLE: bundle, ...env },
  });
}

describe('graph-programs run.sh', () => {
  it('refuses what it is given before anything runs: no OUT, an unknown program, no runs of ncu, no bundle', () => {
    const out = join(root, 'refused');
    const noOut = run({ OUT: '' });
    expect(noOut.status).not.toBe(0);
    expect(noOut.stderr).toContain('set OUT to the output folder');
    const unknown = run({ OUT: out, PROGRAMS: 'forward training' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown program "training" in PROGRAMS; the programs are forward, compiled and nccl');
    expect(run({ OUT: out, NCU_RUNS: '0' }).stderr).toContain('NCU_RUNS=0 is not a whole number of runs, 1 or more');
    expect(run({ OUT: out, STEP_TIMEOUT: '2m' }).stderr).toContain('STEP_TIMEOUT and BUDGET are whole seconds');
    expect(run({ OUT: out, BUNDLE: join(root, 'nowhere') }).stderr).toContain('kreplay.mjs is missing; set BUNDLE');
    expect(existsSync(out)).toBe(false);
  });

  it('runs each step of each program, ncu in node mode NCU_RUNS times and in graph mode once, and leaves a folder summarize.mjs reads', () => {
    const out = join(root, 'out');
    const result = run({ OUT: out, PROGRAMS: 'forward nccl', NCU_RUNS: '2' });
    expect(result.status, result.stderr).toBe(0);
    const commands = readFileSync(log, 'utf8');
    expect(commands.match(/^ncu .*--graph-profiling node/gm)).toHaveLength(2);
    expect(commands).toMatch(/^ncu --metrics gpu__time_duration.sum --export \S+ncu-graph-1 --force-overwrite --graph-profiling graph --profile-from-start off --clock-control none --cache-control all fake-python \S+cuda_graph_forward.py/m);
    expect(commands).toMatch(/^kreplay capture --profile-from-start off --every-launch -o \S+\/forward\/capture --json -- fake-python \S+cuda_graph_forward.py/m);
    expect(commands).toMatch(/^kreplay replay --capture \S+\/forward\/capture --verify full --graph-profiling graph --json/m);
    expect(commands).toMatch(/^kreplay profile capture:\S+\/forward\/capture --metrics gpu__time_duration.sum,sm__throughput\S+ --json/m);
    expect(commands).toMatch(/^kreplay profile capture:\S+\/forward\/capture --metrics gpu__time_duration.sum --graph-profiling graph --json/m);
    expect(commands).not.toMatch(/nccl\/capture --verify full --graph-profiling|profile capture:\S+nccl/);
    expect(readFileSync(join(out, 'forward', 'steps.txt'), 'utf8')).toContain('ncu-node ncu-graph');
    expect(existsSync(join(out, 'forward', 'capture'))).toBe(false);
    expect(readFileSync(join(out, 'forward', 'capture-size.txt'), 'utf8')).toMatch(/^\d+\s/);
    const summary = readFileSync(join(out, 'summary.txt'), 'utf8');
    expect(summary).toContain('ncu --graph-profiling node: 2 runs, kernels per run 6, 6');
    expect(summary).toContain('ncu --graph-profiling graph: 2 results');
    expect(summary).toContain('collectives: 3 kernels counted as collective');
    expect(summary).not.toContain('MISSING');
    expect(existsSync(`${out}.tar.gz`)).toBe(true);
  });

  it('skips the steps that would start past BUDGET, lists them, and still writes the summary', () => {
    const out = join(root, 'budget');
    const result = run({ OUT: out, PROGRAMS: 'forward', BUDGET: '2', SLOW: '1' });
    expect(result.status, result.stderr).toBe(0);
    const skipped = readFileSync(join(out, 'skipped.txt'), 'utf8');
    expect(skipped).toMatch(/^forward\.ncu-graph-1 after \d+ s, past BUDGET=2 s$/m);
    expect(readFileSync(join(out, 'summary.txt'), 'utf8')).toMatch(/MISSING forward\/ncu-graph-N.csv: skipped: after \d+ s, past BUDGET=2 s/);
    expect(result.stderr).toContain('summarize.mjs exited 1');
  });
});
