import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { captureBlobId, captureBlobPath } from '../capture/capture-blob.js';
import type { CaptureCost, CaptureGraphNode, CaptureLaunchAttribute, CaptureMemoryKind, CaptureParameterSlot, CaptureWork } from '../capture/capture-folder-types.js';
import { pageHash } from '../queue/page-hash.js';

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
  /** Version 2: the stream handle. Default `0x0` (the legacy stream). */
  readonly stream?: string;
  /** Version 2: the context handle. Default `0x1`. */
  readonly context?: string;
  /**
   * Version 2: the sequence of the launch it continues, or null when it starts a captured sequence.
   * Default: the launch before it (null for the first).
   */
  readonly follows?: number | null;
  /**
   * Version 2: why it starts a sequence. Default null when it follows a launch, `first-launch` for
   * the first launch, else `unrecorded-write`.
   */
  readonly sequenceBreak?: string | null;
  /** Version 2: the recorded work between the previous captured launch and this one. Default none. */
  readonly workBefore?: readonly CaptureWork[];
  /** Version 2: its place in a graph launch, when it stands for a kernel node of one. Default none. */
  readonly graph?: CaptureGraphNode;
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
  /**
   * 1 (default) or 2. Version 2 adds to each record its stream, context, `follows`,
   * `sequenceBreak`, `workBefore` and each range's `pageHashesBefore` (the page hashes of `before`),
   * and to the manifest `sequences`, `sequenceBreaks` and `cost`.
   */
  readonly formatVersion?: 1 | 2;
  /** Version 2: the manifest's cost. Default all zero but `launches`. */
  readonly cost?: Partial<CaptureCost>;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
const address = (value: number) => `0x${value.toString(16)}`;
const hashHex = (page: Uint8Array) => pageHash(page).toString(16).padStart(16, '0');

/** A recorded work item as a record holds it: addresses as hex strings. */
function workJson(work: CaptureWork): Record<string, unknown> {
  switch (work.kind) {
    case 'memset':
      return { ...work, address: address(work.address) };
    case 'copy':
      return { ...work, destination: address(work.destination), source: address(work.source) };
    case 'upload':
      return { ...work, destination: address(work.destination) };
    case 'download':
      return { ...work, source: address(work.source) };
    case 'allocation':
    case 'free':
      return { ...work, address: address(work.address) };
  }
}

/** The version 2 fields of launch `sequence`'s record. */
function sequenceFields(launch: TestCaptureLaunch, sequence: number): Record<string, unknown> {
  const follows = launch.follows === undefined ? (sequence === 0 ? null : sequence - 1) : launch.follows;
  const sequenceBreak = launch.sequenceBreak !== undefined ? launch.sequenceBreak : follows !== null ? null : sequence === 0 ? 'first-launch' : 'unrecorded-write';
  return { stream: launch.stream ?? '0x0', context: launch.context ?? '0x1', follows, sequenceBreak, workBefore: (launch.workBefore ?? []).map(workJson), ...(launch.graph && { graph: launch.graph }) };
}

/**
 * Writes a capture folder (src/capture/FORMAT.md) from TypeScript, for tests of what reads and
 * replays captures: content-addressed blobs for the modules and the pages before each launch, the
 * page hashes (pageHash) of the memory after, one record per launch and the manifest; with
 * `formatVersion: 2`, also each launch's captured sequence (`follows`), the work before it and the
 * page hashes of the memory before it. Not crash safe (tests write to a fresh folder); the capture
 * library's writer is the one programs use.
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
  const version = capture.formatVersion ?? 1;
  const breaks: Record<string, number> = {};
  let sequences = 0;
  capture.launches.forEach((launch, sequence) => {
    const pageBytes = launch.pageBytes ?? 65536;
    const pages = (bytes: Uint8Array) => Array.from({ length: Math.ceil(bytes.length / pageBytes) }, (_, page) => bytes.subarray(page * pageBytes, (page + 1) * pageBytes));
    const v2 = version === 2 ? sequenceFields(launch, sequence) : {};
    if (version === 2 && v2['follows'] === null) {
      sequences += 1;
      if (sequence > 0) breaks[String(v2['sequenceBreak'])] = (breaks[String(v2['sequenceBreak'])] ?? 0) + 1;
    }
    const record = {
      formatVersion: version,
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
        pageHashesAfter: pages(range.after ?? range.before).map(hashHex),
        ...(version === 2 && { pageHashesBefore: pages(range.before).map(hashHex) }),
      })),
      ...v2,
    };
    writeFileSync(join(directory, 'launches', `${String(sequence).padStart(8, '0')}.json`), JSON.stringify(record));
  });
  const manifest = {
    format: 'kreplay-capture',
    formatVersion: version,
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
    ...(version === 2 && {
      sequences,
      sequenceBreaks: breaks,
      cost: { wallSeconds: 0, deviceBytesHashed: 0, bytesCopiedToHost: 0, bytesStored: 0, blobsStored: 0, launches: capture.launches.length, programWaitSeconds: 0, ...capture.cost },
    }),
  };
  writeFileSync(join(directory, 'manifest.json'), JSON.stringify(manifest));
  return directory;
}
