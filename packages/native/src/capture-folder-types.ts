/** Why a launch or allocation of the captured program is not in the capture (FORMAT.md). */
export type NotCapturedReason =
  | 'graph-launch'
  | 'cooperative-launch'
  | 'multi-device-launch'
  | 'managed-memory'
  | 'texture-or-surface'
  | 'stream-capture'
  | 'no-parameter-metadata';

/** The reasons every manifest lists; the others are absent from folders written before them. */
export type AlwaysCountedReason = 'graph-launch' | 'cooperative-launch' | 'multi-device-launch' | 'managed-memory' | 'texture-or-surface';

/** What kind of memory a captured range is. */
export type CaptureMemoryKind = 'device' | 'pool' | 'vmm' | 'host-pinned' | 'host-registered' | 'module-global';

/** manifest.json of a capture folder. */
export interface CaptureManifest {
  readonly format: 'kreplay-capture';
  readonly formatVersion: 1;
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
