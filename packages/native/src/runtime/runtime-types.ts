/**
 * The public shapes of the native runtime. Every driver (host, cuda, hsa) is reached through these
 * types only; the classes that implement them live beside this file.
 *
 * Addresses are plain numbers: device and host addresses on every supported platform fit in
 * 53 bits, and numbers keep hot paths free of BigInt conversions.
 */

/** A driver that can back a runtime. */
export type DriverName = 'host' | 'cuda' | 'hsa';

/** A driver choice; `auto` = cuda if a CUDA device is found, else hsa if an HSA GPU agent is, else host. */
export type DriverChoice = DriverName | 'auto';

/** Options of {@link openRuntime}. */
export interface OpenRuntimeOptions {
  /** Which driver to open. Default `auto`. */
  readonly driver?: DriverChoice;
  /** Settings of the host driver; ignored by the others. */
  readonly host?: HostDriverOptions;
  /**
   * How long `queue.synchronize()` keeps the JavaScript thread polling for the device before it
   * lets the thread sleep, in microseconds (like CUDA's spin-then-block wait: a thread woken from
   * sleep runs what follows slowly: on an H200 the scatter kernel enqueued and waited for took
   * 0.32-0.34 ms polling and 0.38-0.40 ms sleeping). Default 2000 on the cuda and hsa drivers, 0 on
   * host (whose work runs on this machine's own cores).
   */
  readonly waitSpinMicroseconds?: number;
  /**
   * cuda only: address ranges to keep free for {@link Runtime.allocateAt} and
   * {@link Runtime.allocateHostAt} (a capture replayed at its own addresses). Each range, widened to
   * whole 2 MiB granules, is reserved in the process (an inaccessible placeholder mapping) before the
   * driver library is loaded and initialized, so that neither the driver nor anything else takes it.
   * Reserve in a fresh process, before anything else has loaded libcuda. A range that is taken is
   * an ArgumentError that names the mapping holding it.
   */
  readonly reserveAddresses?: readonly AddressReservation[];
}

/** A range of addresses for {@link OpenRuntimeOptions.reserveAddresses}. */
export interface AddressReservation {
  /** The first address (as a bigint: captured addresses are 64-bit). */
  readonly address: bigint;
  /** How many bytes from it, at least 1. */
  readonly bytes: number;
  /**
   * Whether device memory ({@link Runtime.allocateAt}) will be placed there (default false: host
   * memory). CUDA never grants a range that was mapped while it initialized (an H200 with driver
   * 580), so the placeholder of a device range is given up just before the driver starts, and the
   * driver reserves the range (widened to 32 MiB) right after, holding it for allocateAt.
   */
  readonly device?: boolean;
}

/** A global variable of a loaded kernel's module on one agent ({@link Runtime.kernelGlobal}). */
export interface KernelGlobal {
  readonly address: bigint;
  readonly bytes: number;
}

/** Settings of the host driver, which emulates GPUs in host memory so everything runs anywhere. */
export interface HostDriverOptions {
  /** How many agents to emulate. Default 1, at most 64. */
  readonly agents?: number;
  /**
   * Size of each agent's device-memory arena in bytes. Default 1 GiB. Reserved lazily (virtual
   * memory), but backed by this machine's memory as it fills, so all agents' arenas together must fit
   * physical memory minus a reserve of max(1 GiB, 10%): larger sizes are refused with an ArgumentError.
   */
  readonly deviceMemoryBytes?: number;
  /** The most host bytes all agents' arenas may take together (agents x deviceMemoryBytes). Default: no limit beyond physical memory. */
  readonly hostBytesLimit?: number;
  /** Worker threads of the kernel/hash/copy pool. Default: the number of cores. */
  readonly threads?: number;
}

/** Link figures between host and device, when the driver knows them. */
export interface HostLinkInfo {
  readonly name: string;
  readonly bytesPerSecond: number | null;
}

/** What an agent (a device) is. */
export interface AgentInfo {
  /** Index of the agent in its runtime, 0-based. */
  readonly id: number;
  readonly driver: DriverName;
  readonly name: string;
  /** e.g. `sm_90` on CUDA, `gfx942` on HSA, the CPU's architecture on host. */
  readonly architecture: string;
  readonly deviceMemoryBytes: number;
  readonly hostLink: HostLinkInfo | null;
}

/** Free and total device memory of an agent, in bytes. */
export interface MemoryInfo {
  readonly freeBytes: number;
  readonly totalBytes: number;
}

/** Where a piece of memory lives and how it was allocated. */
export type MemoryKind = 'device' | 'stream-ordered' | 'host-pinned' | 'host-pageable';

/** One allocation or free, as seen by {@link Runtime.onMemoryEvent} listeners. */
export interface MemoryEvent {
  readonly type: 'allocate' | 'free';
  /** The agent owning device memory; `null` for host buffers. */
  readonly agentId: number | null;
  readonly address: number;
  readonly bytes: number;
  readonly kind: MemoryKind;
  /** The queue of a stream-ordered allocate or free; absent for the others. */
  readonly queueId?: number;
}

/** A byte range. */
export interface MemoryRange {
  readonly address: number;
  readonly bytes: number;
}

/** One segment of a copy plan: `bytes` from `source` to `destination`. */
export interface CopySegment {
  readonly source: number;
  readonly destination: number;
  readonly bytes: number;
}

/**
 * A conditional copy: for each page of the segments (pages are numbered across segments in order,
 * each segment contributing ceil(bytes / pageBytes) pages, the last one possibly short), hash the
 * page on `hashedSide`, compare with the stored hash of that page, and when they differ copy the
 * page from source to destination and record its index. Runs on the queue like any other work.
 */
export interface ConditionalCopyOptions {
  readonly segments: readonly CopySegment[];
  readonly pageBytes: number;
  /** Which side is hashed: `source` to bring a mirror up to date, `destination` to restore memory from a mirror. */
  readonly hashedSide: 'source' | 'destination';
  /** Address of one 64-bit hash per page (device-accessible memory). */
  readonly storedHashesAddress: number;
  /** Write the new hash of each copied page into the stored hashes. */
  readonly updateStoredHashes: boolean;
  /** Address of a uint32 array with room for one index per page; the copied pages' indices are written there (order unspecified). */
  readonly pageListAddress: number;
  /** Address of one uint32 that receives how many pages were copied (set, not accumulated). */
  readonly pageCountAddress: number;
}

/** Copies again the pages a conditional copy recorded, source to destination. */
export interface PageListCopyOptions {
  readonly segments: readonly CopySegment[];
  readonly pageBytes: number;
  readonly pageListAddress: number;
  readonly pageCountAddress: number;
  /**
   * Address of one 64-bit hash per page of the segments: when given, the hash of each copied page
   * (of its bytes after the copy) is stored there; the other pages' hashes are left as they are.
   */
  readonly storedHashesAddress?: number;
  /**
   * A buffer of listed pages in list order, for one side of the first `pages` listed pages: the
   * page at list position k < `pages` is at `address + k * pageBytes` (a short last page of a
   * segment takes its own bytes there). With `side: 'destination'` those pages are copied into
   * the buffer and the rest of the list is not copied (a gather); with `side: 'source'` they are
   * copied from it and the rest from their segments. Not with `storedHashesAddress`. Only where
   * {@link Runtime.compactPageLists} is true.
   */
  readonly compact?: PageListCompact;
}

/** See {@link PageListCopyOptions.compact}. */
export interface PageListCompact {
  readonly address: number;
  /** How many listed pages the buffer holds (it has room for `pages * pageBytes` bytes). */
  readonly pages: number;
  readonly side: 'source' | 'destination';
}

/** How a kernel uses the memory behind a pointer argument. */
export type Access = 'read' | 'write' | 'readwrite' | 'unknown';

/**
 * The type of one kernel argument. `bytes`: raw parameter bytes of a declared size (e.g. a whole
 * captured parameter buffer), passed to the kernel as they are; its argument is a Uint8Array.
 */
export type ParameterType = 'pointer' | 'u32' | 'u64' | 'f32' | 'f64' | 'bytes';

/** How many bytes a pointer argument reaches from its address, derived from other arguments. */
export type PointerExtent =
  | { readonly bytesParameter: string }
  | { readonly countParameter: string; readonly elementBytes: number }
  | { readonly constantBytes: number };

/** One declared kernel parameter. */
export interface KernelParameter {
  readonly name: string;
  readonly type: ParameterType;
  /**
   * `bytes` parameters only (and required for them): how many bytes, 1 to 32764 (CUDA's parameter
   * space). A kernel with a `bytes` parameter has no other parameter: the bytes are its whole
   * parameter buffer, laid out as the kernel expects (C ABI), launched through `extra`.
   */
  readonly size?: number;
  /** Pointers only. Absent means `unknown` (treated as readwrite). */
  readonly access?: Access;
  /**
   * Pointers: the memory behind it holds further pointers, so what it reaches cannot be bounded.
   * `bytes`: the buffer may reach memory through more than the pointers it holds itself.
   */
  readonly indirect?: boolean;
  /** Pointers only: how far the kernel reaches from the pointer; absent means to the end of its allocation. */
  readonly extent?: PointerExtent;
}

/**
 * What each profiled pass measures: `kernel`, the dispatch's kernel itself (CUPTI's automatic range,
 * as Nsight Compute measures a kernel), or `dispatch`, a user range pushed on the queue around the
 * dispatch (it also holds the few microseconds between the range's start and the kernel's).
 */
export type ProfilerRange = 'kernel' | 'dispatch';

/**
 * How the L2 is flushed before each pass (and, with cache control `all`, before each dispatch of a
 * range): `write-discard` (default) writes a buffer twice the L2's size and drops its lines, leaving
 * the L2 with no valid line, as Nsight Compute's invalidation does; `read` reads that buffer, leaving
 * the L2 full of its clean lines; `none` flushes nothing. After a flush, 2560 KiB of the buffer are
 * written, so the pass starts with dirty lines that are not the kernel's, as under Nsight Compute.
 */
export type ProfilerL2Flush = 'write-discard' | 'read' | 'none';

/**
 * The instruction caches at the start of each pass: `evict` (default) runs a kernel of 384 KiB of
 * straight-line code on every multiprocessor before the L2 flush, so the profiled kernel's code is
 * fetched afresh, as under Nsight Compute's cache control; `keep` leaves them as the run before left them.
 */
export type ProfilerInstructionCache = 'evict' | 'keep';

/** A kernel that a queue can launch, with its declared parameters. */
export interface KernelDescriptor {
  readonly name: string;
  readonly parameters: readonly KernelParameter[];
  /** False when the same input can give different output bits (e.g. float atomics). */
  readonly deterministic: boolean;
}

/** Options of {@link Runtime.loadKernel}: exactly one of `path` and `image`. */
export interface LoadKernelOptions {
  /**
   * The module file: PTX text (`.ptx`), or a cubin or fatbin built for the device (cuda driver).
   * Relative paths resolve against the current directory.
   */
  readonly path?: string;
  /** The module itself, as `path` would hold it (e.g. a cubin taken from a capture). */
  readonly image?: Uint8Array;
  /** The kernel's name in the module (an `extern "C"` kernel keeps its source name; else the mangled name). */
  readonly name: string;
  /** The kernel's parameters in declared order: types, and for pointers access and extent. */
  readonly parameters: readonly KernelParameter[];
  /** False when the same input can give different output bits (e.g. float atomics). Default true. */
  readonly deterministic?: boolean;
}

/** Grid and block of a user kernel launch (built-in kernels choose their own). */
export interface KernelLaunch {
  /** Blocks in x, y, z: x from 1 to 2^31 - 1, y and z from 1 to 65535. */
  readonly grid: readonly [number, number, number];
  /** Threads per block in x, y, z: x and y up to 1024, z up to 64, at most 1024 in all. */
  readonly block: readonly [number, number, number];
  /** Dynamic shared memory per block, in bytes. Default 0. */
  readonly sharedBytes?: number;
  /**
   * Blocks per cluster in x, y, z (thread block clusters, compute capability 9.0 and newer),
   * launched with cuLaunchKernelEx. Each from 1 to 1024; CUDA refuses clusters that do not divide
   * the grid or are larger than the device allows (a DriverError at the next synchronize).
   * Absent: no clusters.
   */
  readonly clusterDims?: readonly [number, number, number];
}

/**
 * Arguments of a launch, by parameter name. Integers as number or bigint; floats as number; a
 * `bytes` parameter as a Uint8Array of exactly its size.
 */
export type KernelArguments = Readonly<Record<string, number | bigint | Uint8Array>>;

/**
 * One step of a kernel graph ({@link Agent.createGraph}): a kernel launch (as
 * {@link Queue.enqueueKernel} takes it), a memset (every byte of the range set to `value`, 0-255),
 * or a copy of one segment. Steps run in the order given, each after the one before.
 */
export type GraphStep =
  | { readonly kind: 'kernel'; readonly kernel: KernelDescriptor; readonly args: KernelArguments; readonly launch?: KernelLaunch }
  | { readonly kind: 'memset'; readonly address: number; readonly bytes: number; readonly value: number }
  | { readonly kind: 'copy'; readonly source: number; readonly destination: number; readonly bytes: number };

/**
 * The built-in kernels every driver provides. Exact semantics (so drivers agree bit for bit):
 * - `fill(destination: write, bytes: u64, value: u32)`: the 32-bit little-endian pattern repeated
 *   over `bytes` (a short tail gets the pattern's first bytes).
 * - `scatterWrite(buffer: readwrite, bytes: u64, pageBytes: u64, fraction: f64, seed: u64,
 *   source: read, sourceBytes: u64)`: page p of the buffer is chosen when
 *   `(mix64(seed ^ mix64(p)) >>> 11) < fraction * 2^53`; every whole 64-bit word i (index from the
 *   buffer's start) of a chosen page becomes `w * 0x5851F42D4C957F2D + (digest ^ seed ^ i)` (mod 2^64),
 *   where digest is the XOR of the source's whole 64-bit words (0 when sourceBytes is 0).
 *   mix64 is the splitmix64 finalizer (see `mix64` in hash-function.ts).
 * - `triad(a: write, b: read, c: read, scalar: f32, count: u64)`: float32 `a[i] = b[i] + scalar * c[i]`.
 * - `stencil(buffer: readwrite, count: u64)`: float32, in place, as if from a copy of the old values:
 *   `x[i] = (x[i-1] + x[i] + x[i+1]) / 3` for 0 < i < count-1, ends unchanged.
 * - `accumulate(input: read, count: u64, output: write)`: float32 sum of the input into output[0],
 *   in an order that changes from run to run, so its bits are NOT deterministic.
 */
export interface BuiltinKernels {
  readonly fill: KernelDescriptor;
  readonly scatterWrite: KernelDescriptor;
  readonly triad: KernelDescriptor;
  readonly stencil: KernelDescriptor;
  readonly accumulate: KernelDescriptor;
}

/** Which operations a fault applies to. */
export type FaultOperation = 'copy' | 'hash' | 'conditional-copy' | 'kernel' | 'allocate' | 'any';

/** A fault to inject, for tests: fail (or delay) matching operations. */
export interface FaultSpec {
  readonly operation: FaultOperation;
  /** Let this many matching operations succeed first. Default 0. */
  readonly after?: number;
  /** How many matching operations the fault hits. Default 1. */
  readonly count?: number;
  /** Only operations on this agent. Default: any agent. */
  readonly agentId?: number;
  /** Delay the operation by this many milliseconds instead of failing it. */
  readonly delayMilliseconds?: number;
}
