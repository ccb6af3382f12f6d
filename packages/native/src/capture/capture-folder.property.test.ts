import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureFolder } from './capture-folder.js';
import { capturedKernelCode } from './captured-kernel-code.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { jsonNestingBeyond } from '../file-input/json-nesting.js';
import { captureFixtureAxpyParameters } from '../test/capture-fixture.js';
import { writeTestCapture } from '../test/capture-folder-writer.js';

// Random damage done to a valid capture folder: files cut short, bits flipped, JSON values of the
// wrong type or of huge sizes, blob ids declaring huge lengths, links (to /dev/zero, dangling, to a
// directory), FIFOs, directories, sparse files of gigabytes and JSON nested thousands deep where the
// folder's files should be. Whatever the damage, reading the folder ends in a CaptureFormatError
// naming manifest.json (the CLI's exit 2) or in launches that are intact or named damaged, and
// never in another error, a crash or a blocked read.
const root = mkdtempSync(join(tmpdir(), 'kreplay-capture-property-'));
const fifos: string[] = [];
afterAll(() => {
  // A reader that regressed and blocks on opening a FIFO is let go: an open for writing releases it.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    } catch {
      // replaced since
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const ptx = readFileSync(new URL('../../test/gpu/kernels/capture-fixture-axpy.ptx', import.meta.url));
const base = 0x7f50_0000_0000;
/** A valid folder of three launches, of format version 1 or 2 (with recorded work between launches). */
const written = (formatVersion: 1 | 2) =>
  writeTestCapture(join(root, `pristine-${formatVersion}`), {
    formatVersion,
    launches: [2, 3, 4].map((a) => ({
      function: 'kreplay_capture_fixture_axpy',
      module: ptx,
      grid: [1, 1, 1] as const,
      block: [32, 1, 1] as const,
      parameters: captureFixtureAxpyParameters(base, base + 8192, a, 512),
      slots: [
        { index: 0, offset: 0, size: 8 },
        { index: 1, offset: 8, size: 8 },
        { index: 2, offset: 16, size: 4 },
        { index: 3, offset: 20, size: 4 },
      ],
      pageBytes: 1024,
      attributes: [{ name: 'CU_LAUNCH_ATTRIBUTE_PRIORITY', values: [a] }],
      memory: [
        { base, kind: 'device' as const, before: new Uint8Array(3000).fill(a) },
        { base: base + 8192, kind: 'device' as const, before: new Uint8Array(1024).fill(9) },
      ],
      ...(formatVersion === 2 && {
        workBefore: [
          { kind: 'memset' as const, stream: '0x0', address: base, bytes: 64, value: a, elementBytes: 1 as const },
          { kind: 'copy' as const, stream: '0x0', destination: base + 8192, source: base, bytes: 64 },
        ],
      }),
    })),
  });
const pristine = { 1: written(1), 2: written(2) };

/** The folder's files, relative: manifest.json, the records, the blobs (the module's and the pages'). */
const files = (readdirSync(pristine[1], { recursive: true, encoding: 'utf8' }) as string[]).filter((path) => lstatSync(join(pristine[1], path)).isFile()).sort();
const folders = ['launches', 'blobs', ...files.filter((path) => path.startsWith('blobs/')).map((path) => path.slice(0, 'blobs/xx'.length))];
const jsonFiles = files.filter((path) => path.endsWith('.json'));
const RECORD = /^\d{8}\.json$/;

/** One way to damage the folder; `target` picks a file (or folder) among those it applies to. */
type Damage =
  | { readonly kind: 'truncate'; readonly target: number; readonly keep: number }
  | { readonly kind: 'flip'; readonly target: number; readonly position: number; readonly bit: number }
  | { readonly kind: 'retype'; readonly target: number; readonly field: number; readonly value: unknown }
  | { readonly kind: 'huge-blob-id'; readonly target: number; readonly field: number; readonly length: string }
  | { readonly kind: 'sparse'; readonly target: number; readonly bytes: number }
  | { readonly kind: 'link'; readonly target: number; readonly to: 'dev-zero' | 'dangling' | 'directory' | 'sibling' }
  | { readonly kind: 'fifo' | 'directory' | 'remove'; readonly target: number }
  | { readonly kind: 'deep'; readonly target: number; readonly depth: number; readonly bracket: '[' | '{'; readonly inField: boolean }
  | { readonly kind: 'folder-as-file'; readonly target: number };

const target = fc.nat(1000);
const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), target, keep: fc.nat(4000) }),
  fc.record({ kind: fc.constant('flip' as const), target, position: fc.nat(4000), bit: fc.nat(7) }),
  fc.record({
    kind: fc.constant('retype' as const),
    target,
    field: fc.nat(400),
    value: fc.constantFrom<unknown>(null, true, 0, -1, 1.5, 2 ** 31, 2 ** 53, 1e300, '', 'x', '0xffffffffffffffff', [], {}, [1, 2, 3], { a: 1 }),
  }),
  fc.record({ kind: fc.constant('huge-blob-id' as const), target, field: fc.nat(400), length: fc.constantFrom('1073741825', '4294967296', '9007199254740993', '99999999999999999999999') }),
  fc.record({ kind: fc.constant('sparse' as const), target, bytes: fc.constantFrom(2 ** 28 + 1, 2 ** 31, 2 ** 33) }),
  fc.record({ kind: fc.constant('link' as const), target, to: fc.constantFrom('dev-zero' as const, 'dangling' as const, 'directory' as const, 'sibling' as const) }),
  fc.record({ kind: fc.constantFrom('fifo' as const, 'directory' as const, 'remove' as const), target }),
  fc.record({ kind: fc.constant('deep' as const), target, depth: fc.integer({ min: 9, max: 30_000 }), bracket: fc.constantFrom('[' as const, '{' as const), inField: fc.boolean() }),
  fc.record({ kind: fc.constant('folder-as-file' as const), target }),
);

const pick = <T,>(list: readonly T[], index: number): T => list[index % list.length]!;

/** Every value's path in parsed JSON, without recursion (the files are small and shallow). */
function paths(value: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  const pending: [unknown, (string | number)[]][] = [[value, []]];
  while (pending.length > 0) {
    const [node, path] = pending.pop()!;
    if (path.length > 0) found.push(path);
    if (Array.isArray(node)) node.forEach((child, index) => pending.push([child, [...path, index]]));
    else if (node !== null && typeof node === 'object') for (const [key, child] of Object.entries(node)) pending.push([child, [...path, key]]);
  }
  return found;
}

function setAt(value: unknown, path: readonly (string | number)[], replacement: (old: unknown) => unknown): void {
  let node = value as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = replacement(node[path.at(-1)!]);
}

/** Edits the JSON of `path` when it is still a readable JSON file (an earlier damage may have made it something else). */
function editJson(path: string, edit: (value: unknown) => void): void {
  let value: unknown;
  try {
    if (!small(path)) return;
    const text = readFileSync(path, 'utf8');
    // Text an earlier damage nested thousands deep is left so (its paths alone would fill memory).
    if (jsonNestingBeyond(text, 16) !== null) return;
    value = JSON.parse(text);
  } catch {
    return;
  }
  edit(value);
  writeFileSync(path, JSON.stringify(value));
}

/** Whether `path` is a regular file the harness may read: not one an earlier damage made gigabytes long. */
function small(path: string): boolean {
  const stats = existsSync(path) ? lstatSync(path) : null;
  return stats !== null && stats.isFile() && stats.size < 2 ** 20;
}

/** Replaces what is at `path` with what `make` makes there, unless an earlier damage made its folder a file. */
function replace(path: string, make: (path: string) => void): void {
  const parent = dirname(path);
  if (!existsSync(parent) || !lstatSync(parent).isDirectory()) return;
  rmSync(path, { recursive: true, force: true });
  make(path);
}

function apply(folder: string, damage: Damage): void {
  const file = join(folder, pick(files, damage.target));
  const json = join(folder, pick(jsonFiles, damage.target));
  switch (damage.kind) {
    case 'truncate':
      if (small(file)) truncateSync(file, Math.min(damage.keep, lstatSync(file).size));
      return;
    case 'flip': {
      if (!small(file) || lstatSync(file).size === 0) return;
      const bytes = readFileSync(file);
      bytes[damage.position % bytes.length]! ^= 1 << damage.bit;
      writeFileSync(file, bytes);
      return;
    }
    case 'retype':
      editJson(json, (value) => {
        const all = paths(value);
        if (all.length > 0) setAt(value, pick(all, damage.field), () => damage.value);
      });
      return;
    case 'huge-blob-id':
      editJson(json, (value) => {
        const ids = paths(value).filter((path) => {
          let node: unknown = value;
          for (const key of path) node = (node as Record<string | number, unknown>)[key];
          return typeof node === 'string' && /^[0-9a-f]{32}-\d+$/.test(node);
        });
        if (ids.length > 0) setAt(value, pick(ids, damage.field), (old) => `${(old as string).slice(0, 32)}-${damage.length}`);
      });
      return;
    case 'sparse':
      if (small(file)) truncateSync(file, damage.bytes);
      return;
    case 'link': {
      const to = { 'dev-zero': '/dev/zero', dangling: join(folder, 'nowhere'), directory: join(folder, 'blobs'), sibling: join(folder, 'manifest.json') }[damage.to];
      replace(file, (path) => symlinkSync(to, path));
      return;
    }
    case 'fifo':
      replace(file, (path) => {
        execFileSync('mkfifo', [path]);
        fifos.push(path);
      });
      return;
    case 'directory':
      replace(file, (path) => mkdirSync(path));
      return;
    case 'remove':
      replace(file, () => undefined);
      return;
    case 'deep': {
      const open = damage.bracket === '[' ? '[' : '{"a":';
      const close = damage.bracket === '[' ? ']' : '}';
      const nested = `${open.repeat(damage.depth)}1${close.repeat(damage.depth)}`;
      if (!damage.inField) {
        replace(json, (path) => writeFileSync(path, nested));
        return;
      }
      editJson(json, (value) => {
        const all = paths(value);
        if (all.length > 0) setAt(value, pick(all, damage.target), () => '\u0000nested\u0000');
      });
      if (small(json)) writeFileSync(json, readFileSync(json, 'utf8').replace('"\\u0000nested\\u0000"', nested));
      return;
    }
    case 'folder-as-file':
      replace(join(folder, pick(folders, damage.target)), (path) => writeFileSync(path, 'not a folder'));
  }
}

/** The most memory a read may add: the damaged files are refused, not read, whatever their size. */
const memoryHeadroom = 2 ** 30;

/**
 * Rejects when `promise` takes longer than `ms`, or the process's memory grows by more than
 * memoryHeadroom meanwhile: a read that blocks or reads without end fails the property instead of
 * hanging the test or exhausting the machine.
 */
function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  const start = process.memoryUsage.rss();
  let watch: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  const bounds = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms (a read blocked)`)), ms);
    watch = setInterval(() => {
      const grown = process.memoryUsage.rss() - start;
      if (grown > memoryHeadroom) reject(new Error(`${what} grew the process by ${grown} bytes (a read without end)`));
    }, 20);
  });
  return Promise.race([promise, bounds]).finally(() => {
    clearTimeout(timer);
    clearInterval(watch);
  });
}

let runs = 0;

describe('readCaptureFolder on randomly damaged folders', () => {
  it('ends in named damaged launches or a CaptureFormatError naming manifest.json, never a crash or a hang', async () => {
    expect(files.filter((path) => path.startsWith('launches/'))).toHaveLength(3);
    // Both folders hold the same files (the blobs are the same), and read whole.
    expect((readdirSync(pristine[2], { recursive: true, encoding: 'utf8' }) as string[]).filter((path) => lstatSync(join(pristine[2], path)).isFile()).sort()).toEqual(files);
    for (const folder of Object.values(pristine)) expect((await readCaptureFolder(folder)).launches).toHaveLength(3);
    await fc.assert(
      fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.constantFrom(1 as const, 2 as const), async (damages, verifyBlobs, formatVersion) => {
        const folder = join(root, `run-${(runs += 1)}`);
        cpSync(pristine[formatVersion], folder, { recursive: true });
        for (const one of damages) apply(folder, one);
        let read: Awaited<ReturnType<typeof readCaptureFolder>>;
        try {
          read = await within(readCaptureFolder(folder, { verifyBlobs }), 'readCaptureFolder');
        } catch (error) {
          // The folder as a whole is refused: only for its manifest, as a format error (the CLI's exit 2).
          expect(error).toBeInstanceOf(CaptureFormatError);
          expect((error as CaptureFormatError).file).toBe('manifest.json');
          expect((error as Error).message).toMatch(/^\[native\] \[capture\] .*manifest\.json.*\. .+\.$/s);
          return;
        }
        // Every record in launches/ is a launch or a damaged launch naming its file, once.
        const launches = join(folder, 'launches');
        const records = existsSync(launches) && lstatSync(launches).isDirectory() ? readdirSync(launches).filter((name) => RECORD.test(name)) : [];
        const accounted = [...read.launches.map((launch) => launch.file), ...read.damaged.map((damaged) => damaged.file)].sort();
        expect(accounted).toEqual(records.map((name) => `launches/${name}`).sort());
        for (const damaged of read.damaged) {
          expect(damaged.reason.startsWith(damaged.file), damaged.reason).toBe(true);
          expect(damaged.reason.length).toBeGreaterThan(damaged.file.length + 5);
        }
        // What reads the intact launches' modules again does not throw or block either.
        await within(capturedKernelCode(read), 'capturedKernelCode');
        rmSync(folder, { recursive: true, force: true });
      }),
      // Moderate: a few seconds on a 2-core machine. No shrinking after a failure: a blocked read
      // would make every shrinking step wait for its timeout.
      { numRuns: 100, endOnFailure: true },
    );
  }, 120_000);
});

