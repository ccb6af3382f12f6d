// A stand-in for a CUDA program run under `kreplay capture`: it does what the capture library would
// do inside a real one, from the environment it was given. Usage:
//   fake-cuda-program.mjs <seen.json> [exit code | SIGNAL | no-capture | slow | flat | bad-selection | version-2]
// It records its environment, argv and pid in <seen.json>, writes one line to stdout and to stderr,
// and (unless told no-capture) writes a capture of three launches of two kernels into
// $KREPLAY_CAPTURE_DIR/processes/<its pid>, as FORMAT.md describes (flat: into $KREPLAY_CAPTURE_DIR
// itself, as a library of before sub-captures did; bad-selection: no launch, and a manifest whose
// selectionError says the kernel-name pattern could not be compiled; version-2: format version 2,
// the second launch following the first, the third starting a sequence on another stream, else
// format version 1); then it exits with the code or kills itself (slow: exits 0 half a second later).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [seenPath, ending = '0'] = process.argv.slice(2);
const seen = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('KREPLAY_CAPTURE_') || name === 'CUDA_INJECTION64_PATH'));
writeFileSync(seenPath, JSON.stringify({ environment: seen, argv: process.argv.slice(2), pid: process.pid }));
process.stdout.write('fake program: stdout\n');
process.stderr.write('fake program: stderr\n');

const top = process.env.KREPLAY_CAPTURE_DIR;
const directory = top && (ending === 'flat' ? top : join(top, 'processes', String(process.pid)));
if (directory && ending !== 'no-capture') {
  const blob = (bytes) => {
    const id = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}-${bytes.length}`;
    mkdirSync(join(directory, 'blobs', id.slice(0, 2)), { recursive: true });
    writeFileSync(join(directory, 'blobs', id.slice(0, 2), id), bytes);
    return id;
  };
  const module = blob(Buffer.from('fake module image'));
  const page = blob(Buffer.alloc(4096, 7));
  mkdirSync(join(directory, 'launches'), { recursive: true });
  const version = ending === 'version-2' ? 2 : 1;
  const names = ending === 'bad-selection' ? [] : ['_Z4axpyPfPKffj', '_Z4axpyPfPKffj', 'reduce'];
  names.forEach((name, sequence) => {
    const record = {
      formatVersion: version,
      sequence,
      function: name,
      module,
      shape: { grid: [1, 1, 1], block: [32, 1, 1], dynamicSharedBytes: 0, clusterDims: null, attributes: [] },
      parameters: { size: 8, buffer: '0010000000000000', slots: [{ index: 0, offset: 0, size: 8 }] },
      pageBytes: 4096,
      memory: [{ base: '0x100000', bytes: 4096, kind: 'device', label: '', pagesBefore: [page], pageHashesAfter: ['0123456789abcdef'] }],
    };
    if (version === 2) {
      Object.assign(record, {
        stream: sequence === 2 ? '0x10' : '0x0',
        context: '0x1',
        follows: sequence === 1 ? 0 : null,
        sequenceBreak: sequence === 0 ? 'first-launch' : sequence === 1 ? null : 'other-stream',
        workBefore: [],
      });
      record.memory[0].pageHashesBefore = ['0123456789abcdef'];
    }
    writeFileSync(join(directory, 'launches', `${String(sequence).padStart(8, '0')}.json`), JSON.stringify(record));
  });
  const manifest = {
    format: 'kreplay-capture',
    formatVersion: version,
    writer: { name: 'fake-cuda-program', version: '1' },
    driver: 'cuda',
    device: { name: 'Fake GPU', architecture: 'sm_90' },
    command: JSON.parse(process.env.KREPLAY_CAPTURE_COMMAND ?? '[]'),
    complete: ending !== 'bad-selection',
    notCaptured: { 'graph-launch': 2, 'cooperative-launch': 0, 'multi-device-launch': 0, 'managed-memory': 1, 'texture-or-surface': 0 },
    ...(ending !== 'flat' && { process: { pid: process.pid, parentPid: process.ppid } }),
    ...(ending === 'bad-selection' && {
      selectionError: 'KREPLAY_CAPTURE_KERNEL_NAME=(?<=_)gemm is not a valid regular expression for the capture library: C++ std::regex (ECMAScript grammar) cannot compile it',
    }),
  };
  if (version === 2) {
    Object.assign(manifest, {
      sequences: 2,
      sequenceBreaks: { 'other-stream': 1, 'uncaptured-launch': 0 },
      cost: { wallSeconds: 2.5, deviceBytesHashed: 3 * 2 ** 30, bytesCopiedToHost: 2 ** 30, bytesStored: 8192, blobsStored: 2, launches: 3, programWaitSeconds: 0.75 },
    });
  }
  writeFileSync(join(directory, 'manifest.json'), JSON.stringify(manifest));
}
if (/^SIG/.test(ending)) process.kill(process.pid, ending);
else if (ending === 'slow') setTimeout(() => {}, 500);
else if (/^\d+$/.test(ending)) process.exitCode = Number(ending);
