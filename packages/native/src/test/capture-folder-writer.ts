import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { captureBlobId, captureBlobPath } from '../capture-blob.js';
import type { CaptureLaunchAttribute, CaptureMemoryKind, CaptureParameterSlot } from '../capture-folder-types.js';
import { pageHash } from '../page-hash.js';

/** One memory range of a test capture: its bytes before the launch and after it. */
export interface TestCaptureRange {
  readonly base: number;
  readonly kind: CaptureMemoryKind;
  /** A module global's name; default empty. */
  readonly label?: string;
  readonly before: Uint8Array;
  /** Default: the same as before (the launch did not change it). */
  readonly after?: Uint8Array;
}

/** One launch of a test capture. */
export interface TestCaptureLaunch {
  readonly function: string;
  /** The module image (a cubin, a fatbin or PTX text). */
  readonly module: Uint8Array;
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  readonly dynamicSharedBytes?: number;
  readonly clusterDims?: readonly [number, number, number] | null;
  readonly attributes?: readonly CaptureLaunchAttribute[];
  /** The raw parameter buffer. */
  readonly parameters: Uint8Array;
  /** Default: none. */
  readonly slots?: readonly CaptureParameterSlot[];
  /** Default 65536. */
  readonly pageBytes?: number;
  readonly memory: readonly TestCaptureRange[];
}

/** What {@link writeTestCapture} writes. */
export interface TestCapture {
  /** Default `{ name: 'Test device', architecture: 'sm_90' }`. */
  readonly device?: { readonly name: string; readonly architecture: string };
  /** Default `['test-program']`. */
  readonly command?: readonly string[];
  /** Default true. */
  readonly complete?: boolean;
  /** Counts to add to the zero counts of every reason. */
  readonly notCaptured?: Readonly<Record<string, number>>;
  readonly launches: readonly TestCaptureLaunch[];
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * Writes a capture folder (src/capture/FORMAT.md) from TypeScript, for tests of what reads and
 * replays captures: content-addressed blobs for the modules and the pages before each launch, the
 * page hashes (pageHash) of the memory after, one record per launch and the manifest. Not crash
 * safe (tests write to a fresh folder); the capture library's writer is the one programs use.
 * @returns the folder.
 */
export function writeTestCapture(directory: string, capture: TestCapture): string {
  const writeBlob = (bytes: Uint8Array): string => {
    const id = captureBlobId(bytes);
    const path = join(directory, captureBlobPath(id));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    return id;
  };
  mkdirSync(join(directory, 'launches'), { recursive: true });
  capture.launches.forEach((launch, sequence) => {
    const pageBytes = launch.pageBytes ?? 65536;
    const pages = (bytes: Uint8Array) => Array.from({ length: Math.ceil(bytes.length / pageBytes) }, (_, page) => bytes.subarray(page * pageBytes, (page + 1) * pageBytes));
    const record = {
      formatVersion: 1,
      sequence,
      function: launch.function,
      module: writeBlob(launch.module),
      shape: {
        grid: launch.grid,
        block: launch.block,
        dynamicSharedBytes: launch.dynamicSharedBytes ?? 0,
        clusterDims: launch.clusterDims ?? null,
        attributes: launch.attributes ?? [],
      },
      parameters: { size: launch.parameters.length, buffer: hex(launch.parameters), slots: launch.slots ?? [] },
      pageBytes,
      memory: launch.memory.map((range) => ({
        base: `0x${range.base.toString(16)}`,
        bytes: range.before.length,
        kind: range.kind,
        label: range.label ?? '',
        pagesBefore: pages(range.before).map(writeBlob),
        pageHashesAfter: pages(range.after ?? range.before).map((page) => pageHash(page).toString(16).padStart(16, '0')),
      })),
    };
    writeFileSync(join(directory, 'launches', `${String(sequence).padStart(8, '0')}.json`), JSON.stringify(record));
  });
  const manifest = {
    format: 'kreplay-capture',
    formatVersion: 1,
    writer: { name: 'writeTestCapture', version: '1' },
    driver: 'cuda',
    device: capture.device ?? { name: 'Test device', architecture: 'sm_90' },
    command: capture.command ?? ['test-program'],
    complete: capture.complete ?? true,
    notCaptured: {
      'graph-launch': 0,
      'cooperative-launch': 0,
      'multi-device-launch': 0,
      'managed-memory': 0,
      'texture-or-surface': 0,
      ...capture.notCaptured,
    },
  };
  writeFileSync(join(directory, 'manifest.json'), JSON.stringify(manifest));
  return directory;
}
