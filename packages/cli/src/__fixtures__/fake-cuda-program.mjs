// A stand-in for a CUDA program run under `kreplay capture`: it does what the capture library would
// do inside a real one, from the environment it was given. Usage:
//   fake-cuda-program.mjs <seen.json> [exit code | SIGNAL | no-capture | slow | version-2]
// It records its environment and argv in <seen.json>, writes one line to stdout and to stderr, and
// (unless told no-capture) writes a capture folder of three launches of two kernels into
// $KREPLAY_CAPTURE_DIR, as FORMAT.md describes (format version 1, or 2 when told version-2: the
// second launch follows the first, the third starts a sequence on another stream); then it exits
// with the code or kills itself (slow: exits 0 half a second later).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [seenPath, ending = '0'] = process.argv.slice(2);
const seen = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('KREPLAY_CAPTURE_') || name === 'CUDA_INJECTION64_PATH'));
writeFileSync(seenPath, JSON.stringify({ environment: seen, argv: process.argv.slice(2) }));
process.stdout.write('fake program: stdout\n');
process.stderr.write('fake program: stderr\n');

const directory = process.env.KREPLAY_CAPTURE_DIR;
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
  ['_Z4axpyPfPKffj', '_Z4axpyPfPKffj', 'reduce'].forEach((name, sequence) => {
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
    complete: true,
    notCaptured: { 'graph-launch': 2, 'cooperative-launch': 0, 'multi-device-launch': 0, 'managed-memory': 1, 'texture-or-surface': 0 },
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
else if (ending !== 'no-capture' && ending !== 'version-2') process.exitCode = Number(ending);
