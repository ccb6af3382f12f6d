/** Why a launch or allocation of the captured program is not in the capture (FORMAT.md). */
export type NotCapturedReason =
  | 'graph-launch'
  | 'cooperative-launch'
  | 'multi-device-launch'
  | 'managed-memory'
  | 'texture-or-surface'
  | 'stream-capture'
  | 'no-parameter-metadata'
  /** Graph launches holding a node that cannot be captured (the graph ran untouched), by the node's kind. */
  | 'graph-child-graph'
  | 'graph-conditional-node'
  | 'graph-host-node'
  | 'graph-event-node'
  | 'device-graph-launch'
  /** A kernel taking part in a collective (NCCL's by name, any from a libnccl* / librccl* module or launched by one's code): never replayed alone. */
  | 'collective'
  /** Graph launches after a change to their executable graph the capture could not follow (the graph ran untouched). */
  | 'graph-untracked-change'
  /** Graph launches of an executable graph whose graph libcuda refused to clone, as it refuses any graph with memory allocation or free nodes (the graph ran untouched). */
  | 'graph-not-cloned';

/** The reasons every manifest lists; the others are absent from folders written before them. */
export type AlwaysCountedReason = 'graph-launch' | 'cooperative-launch' | 'multi-device-launch' | 'managed-memory' | 'texture-or-surface';

/** What kind of memory a captured range is. */
export type CaptureMemoryKind = 'device' | 'pool' | 'vmm' | 'host-pinned' | 'host-registered' | 'module-global';

/** The capture format versions this reader reads (FORMAT.md). */
export type CaptureFormatVersion = 1 | 2;

/**
 * Why a captured launch starts a new captured sequence instead of continuing the previous launch's
 * (format version 2; FORMAT.md). A later writer may add reasons.
 */
export type CaptureSequenceBreak =
  | 'first-launch'
  | 'other-stream'
  | 'uncaptured-launch'
  | 'host-function'
  | 'cross-stream-wait'
  | 'unbounded-write'
  | 'other-stream-work'
  | 'host-write'
  | 'unrecorded-write'
  /** The first captured kernel node of a graph launch. */
  | 'graph-launch'
  | (string & {});

/** What capturing cost the program (format version 2). */
export interface CaptureCost {
  /** Seconds from the capture's start to its last update. */
  readonly wallSeconds: number;
  /** Bytes of memory the capture hashed on the device. */
  readonly deviceBytesHashed: number;
  /** Bytes the capture copied from the device to the host. */
  readonly bytesCopiedToHost: number;
  /** Bytes of new blobs written. */
  readonly bytesStored: number;
  readonly blobsStored: number;
  /** Complete launches written. */
  readonly launches: number;
  /** Seconds the program spent waiting inside the capture's callbacks. */
  readonly programWaitSeconds: number;
}

/** manifest.json of a capture folder. */
export interface CaptureManifest {
  readonly format: 'kreplay-capture';
  readonly formatVersion: CaptureFormatVersion;
  readonly writer: { readonly name: string; readonly version: string };
  /** The driver of the captured program, e.g. `cuda`. */
  readonly driver: string;
  readonly device: { readonly name: string; readonly architecture: string };
  /** The captured program's command line. */
  readonly command: readonly string[];
  /** False when the program ended (or was killed) before the capture was finished. */
  readonly complete: boolean;
  /** How many launches or allocations were not captured, by reason; a later writer may add reasons. */
  readonly notCaptured: Readonly<Record<AlwaysCountedReason, number>> &
    Readonly<Partial<Record<NotCapturedReason, number>>> &
    Readonly<Record<string, number>>;
  /** Version 2: how many captured sequences the complete launches form. */
  readonly sequences?: number;
  /** Version 2: why each sequence after the first started, counted by reason. */
  readonly sequenceBreaks?: Readonly<Record<string, number>>;
  /** Version 2: what capturing cost. */
  readonly cost?: CaptureCost;
  /** Graph launches whose kernel nodes were captured; absent in folders written before graphs were captured. */
  readonly graphLaunches?: number;
  /** The process captured (FORMAT.md, "Processes"); absent in folders written before sub-captures. */
  readonly process?: { readonly pid: number; readonly parentPid: number };
  /**
   * Present when the capture library could not use the selection it was given (a kernel-name
   * pattern its std::regex cannot compile) and so selected nothing: why. Such a capture is a
   * failure, not an empty capture.
   */
  readonly selectionError?: string;
}

/** A cuLaunchKernelEx attribute other than the cluster dimensions. */
export interface CaptureLaunchAttribute {
  readonly name: string;
  readonly values: readonly number[];
}

/** The launch shape of a captured launch. */
export interface CaptureLaunchShape {
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  readonly dynamicSharedBytes: number;
  readonly clusterDims: readonly [number, number, number] | null;
  readonly attributes: readonly CaptureLaunchAttribute[];
}

/** One parameter's place in the parameter buffer. */
export interface CaptureParameterSlot {
  readonly index: number;
  readonly offset: number;
  readonly size: number;
}

/** A range the kernel could reach: its pages before the launch (blob ids) and their hashes after. */
export interface CaptureMemoryRange {
  readonly base: number;
  readonly bytes: number;
  readonly kind: CaptureMemoryKind;
  /** E.g. a module global's name; empty when there is none. */
  readonly label: string;
  /** The blob id of each page before the launch; the last page may be short. */
  readonly pagesBefore: readonly string[];
  /** The page hash (see pageHash) of each page after the launch. */
  readonly pageHashesAfter: readonly bigint[];
  /** Version 2: the page hash of each page before the launch; null in a version 1 record. */
  readonly pageHashesBefore: readonly bigint[] | null;
}

/**
 * Work the program did on a launch's stream between the previous captured launch and this one
 * (format version 2). Addresses are numbers, as range bases are.
 */
export type CaptureWork =
  | { readonly kind: 'memset'; readonly stream: string; readonly address: number; readonly bytes: number; readonly value: number; readonly elementBytes: 1 | 2 | 4 }
  | { readonly kind: 'copy'; readonly stream: string; readonly destination: number; readonly source: number; readonly bytes: number }
  /** From host memory the capture does not track; the bytes it wrote are in the next launch's pages before. */
  | { readonly kind: 'upload'; readonly stream: string; readonly destination: number; readonly bytes: number }
  /** To host memory the capture does not track: changes nothing the capture holds. */
  | { readonly kind: 'download'; readonly stream: string; readonly source: number; readonly bytes: number }
  | { readonly kind: 'allocation'; readonly address: number; readonly bytes: number; readonly memoryKind: CaptureMemoryKind }
  | { readonly kind: 'free'; readonly address: number };

/** Where a launch captured as a kernel node of a graph launch stands in it (format version 2). */
export interface CaptureGraphNode {
  /** The graph the executable graph was instantiated from (a handle, `0x...`). */
  readonly graph: string;
  /** The node in that graph (a handle, `0x...`). */
  readonly node: string;
  /** Its place in the topological order the capture ran the graph's nodes in. */
  readonly nodeIndex: number;
  /** Which of the program's graph launches it ran in, from 0. */
  readonly graphLaunch: number;
}

/** One complete captured launch. */
export interface CaptureLaunch {
  /** Its position in the program's order of captured launches, from 0. */
  readonly sequence: number;
  /** The record's file, relative to the folder: `launches/00000003.json`. */
  readonly file: string;
  readonly function: string;
  /** The blob id of the module image the function was loaded from. */
  readonly module: string;
  readonly shape: CaptureLaunchShape;
  /** The raw parameter buffer as the program passed it. */
  readonly parameterBuffer: Uint8Array;
  readonly parameters: readonly CaptureParameterSlot[];
  readonly pageBytes: number;
  readonly memory: readonly CaptureMemoryRange[];
  /** The record's format version. */
  readonly formatVersion: CaptureFormatVersion;
  /** Version 2: the stream handle the program launched on (`0x0`: the legacy stream); null in version 1. */
  readonly stream: string | null;
  /** Version 2: the context handle; null in version 1. */
  readonly context: string | null;
  /** Version 2: the sequence number of the previous launch of its captured sequence, or null when it starts one. */
  readonly follows: number | null;
  /** Version 2: why it starts a captured sequence (null when it continues one, and in version 1). */
  readonly sequenceBreak: CaptureSequenceBreak | null;
  /** Version 2: the recorded work between the previous captured launch on its stream and this one (empty in version 1). */
  readonly workBefore: readonly CaptureWork[];
  /** A kernel node of a graph launch: where it stands in it; null for an ordinary launch (and in older records). */
  readonly graph: CaptureGraphNode | null;
}

/** A launch record that is in the folder but cannot be used, and why. */
export interface DamagedCaptureLaunch {
  readonly file: string;
  /** The sequence number its file name gives. */
  readonly sequence: number;
  /** The field at fault (`shape.grid[0]`), or the blob (`blobs/ab/ab12...-4096`), or null. */
  readonly field: string | null;
  /** The whole reason, e.g. `blobs/ab/ab12...-4096 is 100 bytes, not 4096 (truncated)`. */
  readonly reason: string;
}

/** What {@link readCaptureFolder} found. */
export interface CaptureFolder {
  readonly directory: string;
  readonly manifest: CaptureManifest;
  /** The complete, intact launches, by sequence. */
  readonly launches: readonly CaptureLaunch[];
  /** Records that are there but damaged: unreadable, against the schema, or with a damaged blob. */
  readonly damaged: readonly DamagedCaptureLaunch[];
  /** Temporary files a writer left (a launch or blob it was writing when it stopped), relative paths. */
  readonly incomplete: readonly string[];
}
