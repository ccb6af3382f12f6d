import type { Agent, Queue, Runtime } from '../runtime/runtime-objects.js';
import type { Allocation } from '../memory/allocation.js';
import type { CaptureFolder, CaptureLaunch, CaptureMemoryRange } from '../capture/capture-folder-types.js';
import { CaptureFormatError } from '../errors/capture-format-error.js';
import { DriverError } from '../errors/driver-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import { moduleParameterLayouts, parameterExtent } from '../kernels/kernel-parameter-layout.js';
import { readPtxHeader } from '../kernels/ptx-module.js';
import { pageHash } from '../queue/page-hash.js';
import type { KernelDescriptor } from '../runtime/runtime-types.js';
import { argumentError, describeValue, formatAddress } from '../errors/validate.js';
import { architectureProblem } from './capture-architecture.js';
import type { CaptureDispatch, CaptureRange, CaptureRangeCheck, CaptureReplayRange } from './capture-dispatch.js';
import { CapturePageState } from './capture-memory.js';
import { planRangePages, type PlacedCaptureRange } from './capture-range-plan.js';
import { CaptureRangeStaging } from './capture-range-staging.js';
import { checkRangeRun } from './capture-range-check.js';
import { dispatchOf, type PlacedLaunch } from './capture-placed-launch.js';
import { relocatedAddress, relocateParameterWords, type AddressMove, type CaptureRelocation } from './capture-relocation.js';
import { pagesOf, readBlob, type CapturePage } from './capture-pages.js';
import { captureRegions, placementOf, placementOrder, type CaptureAddressReservation, type CaptureRegion } from './capture-regions.js';

const component = 'capture';

/**
 * Where captured memory goes: `exact`, at its captured addresses or not at all; `relocate`, wherever
 * the driver allocates it; `exact-or-relocate`, exact where the driver allows it and relocated
 * elsewhere. Relocated memory gets the parameter buffer's pointers rewritten, not pointers stored in
 * memory (a kernel that follows one of those reads the old place: its post-launch check fails).
 */
export type CaptureAddressPolicy = 'exact' | 'exact-or-relocate' | 'relocate';

/**
 * A capture folder opened for replay on one agent (see {@link openCapture}): its memory mapped at the
 * captured addresses, and each launch made ready on request. Memory and modules are kept across
 * launches: a page is written again only when its content differs, a module loaded once per kernel.
 */
export class CaptureReplay implements AsyncDisposable {
  readonly folder: CaptureFolder;
  readonly runtime: Runtime;
  readonly agent: Agent;
  /** The ranges reserved before the driver started (empty when the caller opened the runtime). */
  readonly reservations: readonly CaptureAddressReservation[];
  /** The regions mapped at their captured bases (device and host memory), made by the first {@link prepare}. */
  readonly regions: readonly CaptureRegion[];
  readonly #ownsRuntime: boolean;
  readonly #placement: CaptureAddressPolicy;
  readonly #relocations: CaptureRelocation[] = [];
  readonly #queue: Queue;
  readonly #pages: CapturePageState;
  readonly #kernels = new Map<string, Promise<KernelDescriptor>>();
  readonly #checkedModules = new Map<string, Promise<void>>();
  readonly #blobHashes = new Map<string, Promise<bigint>>();
  readonly #staging: CaptureRangeStaging;
  #allocations: Promise<Allocation[]> | undefined;
  #disposal: Promise<void> | undefined;

  /** @internal Made by {@link openCapture}. */
  constructor(
    folder: CaptureFolder,
    runtime: Runtime,
    agent: Agent,
    reservations: readonly CaptureAddressReservation[],
    ownsRuntime: boolean,
    placement: CaptureAddressPolicy = 'exact-or-relocate',
  ) {
    this.#placement = placement;
    this.folder = folder;
    this.runtime = runtime;
    this.agent = agent;
    this.reservations = Object.freeze(reservations);
    this.regions = Object.freeze(captureRegions(folder.launches));
    this.#ownsRuntime = ownsRuntime;
    this.#queue = agent.createQueue();
    this.#pages = new CapturePageState(folder.directory, agent, this.#queue);
    this.#staging = new CaptureRangeStaging(folder.directory, agent);
  }

  /** The regions placed elsewhere than their captured base (after the first {@link prepare}). */
  get relocations(): readonly CaptureRelocation[] {
    return this.#relocations;
  }

  /** The complete launches of the capture, by sequence. */
  get launches(): readonly CaptureLaunch[] {
    return this.folder.launches;
  }

  /**
   * Makes the memory of `launch` (its sequence, or one of {@link launches}) as it was before the
   * program's launch, and returns its dispatch. The first call maps every region at its captured
   * base (allocation events: a tracker created before sees them); each call loads the launch's
   * kernel (once per module and function), writes the module's globals, and writes the pages whose
   * content differs from what memory holds.
   * @throws {ArgumentError} (as a rejection) for a launch that is not in the capture, or an address that cannot be mapped.
   * @throws {UnsupportedError} (as a rejection) when the module cannot run on this agent's architecture.
   * @throws {CaptureFormatError} (as a rejection) when a blob changed since the folder was read, or a global is not in the module.
   * @throws {DriverError} (as a rejection) when the driver fails to map memory or load the module.
   */
  async prepare(launch: number | CaptureLaunch): Promise<CaptureDispatch> {
    const record = this.#launchOf(launch);
    await this.map();
    const placed = await this.#placeLaunch(record);
    const writes = await this.#pages.bringUpToDate(placed.pages.flat(), record.pageBytes);
    return dispatchOf(placed, writes);
  }

  /**
   * Registers per thread of a launch's function as the driver loaded it for this replay (the
   * captured module on this agent: the code the program ran, on the same architecture), which is
   * what profilers report; null where the driver does not say. Loads the module when no prepare
   * has yet.
   * @throws {ArgumentError} (as a rejection) for a launch that is not in the capture.
   * @throws {UnsupportedError} (as a rejection) when the module cannot run on this agent's architecture.
   * @throws {DriverError} (as a rejection) when the driver fails to load the module.
   */
  async registersPerThread(launch: number | CaptureLaunch): Promise<number | null> {
    return this.runtime.kernelRegisters(await this.#kernel(this.#launchOf(launch)), this.agent.id);
  }

  /**
   * Makes a range of launches ready to run as one unit: memory as it was before the program's
   * first launch of them (as {@link prepare} makes it), and for each launch its dispatch, without
   * writing its memory, and the copies that make memory as it was before it from memory as the
   * launch before it left it: the pages whose hash before it differs from their hash after the
   * launch before (or that launch did not reach them), their bytes staged once in device memory
   * the replay owns (`staging`). Pages of ranges no earlier launch of the range reaches are
   * written with the first launch's. Run the launches in order, each after its `before` copies.
   * The launches are meant to be a captured sequence (captureSequences), but any list is planned
   * correctly, only with larger copies.
   * @throws {ArgumentError} (as a rejection) for an empty list, a launch that is not in the capture, or an address that cannot be mapped.
   * @throws {UnsupportedError} (as a rejection) when a module cannot run on this agent's architecture.
   * @throws {CaptureFormatError} (as a rejection) when a blob changed since the folder was read, or a global is not in the module.
   * @throws {DriverError} (as a rejection) when the driver fails to map memory, load a module or allocate the staging.
   */
  async prepareRange(launches: readonly (number | CaptureLaunch)[]): Promise<CaptureRange> {
    return (await this.#prepareRange(launches)).range;
  }

  /**
   * Runs a range of launches once on `queue`, from its prepared memory ({@link prepareRange}),
   * and compares the memory after each launch with the program's (checkPostLaunchHashes). Pages a
   * launch left different are written back from a later launch's pages before, before that launch
   * runs, so that each launch is checked from the program's memory before it: a launch that does
   * not reproduce the program is named alone, not with the launches after it.
   * @throws what {@link prepareRange} throws.
   * @throws {DriverError} (as a rejection) when a launch fails on the device.
   */
  async checkRange(launches: readonly (number | CaptureLaunch)[], queue: Queue): Promise<CaptureRangeCheck> {
    const { range, placed } = await this.#prepareRange(launches);
    return checkRangeRun(range, placed.map((launch) => launch.pages.flat()), { agent: this.agent, directory: this.folder.directory, queue });
  }

  async #prepareRange(launches: readonly (number | CaptureLaunch)[]): Promise<{ readonly range: CaptureRange; readonly placed: readonly PlacedLaunch[] }> {
    if (!Array.isArray(launches) || launches.length === 0) {
      throw argumentError(component, 'launches', `launches is ${describeValue(launches)}, not a non-empty list`, 'Pass the launches of the range (sequences or records), in order');
    }
    const records = launches.map((launch) => this.#launchOf(launch));
    await this.map();
    const placed: PlacedLaunch[] = [];
    for (const record of records) placed.push(await this.#placeLaunch(record));
    const ranges = await Promise.all(placed.map((launch) => this.#rangesWithHashes(launch)));
    const plan = planRangePages(ranges);
    const pageBytes = Math.max(...records.map((record) => record.pageBytes));
    const writes = await this.#pages.bringUpToDate(plan.initial, pageBytes);
    const staged = await this.#staging.stage(records.map((record) => record.sequence).join(','), plan.before);
    const notes = records.slice(1).flatMap((record, index) =>
      record.follows === records[index]!.sequence ? [] : [`launch ${record.sequence} does not follow launch ${records[index]!.sequence} in a captured sequence: every page it reaches that differs is copied before it`],
    );
    const range: CaptureRange = Object.freeze({
      launches: Object.freeze(
        placed.map((launch, index) =>
          Object.freeze({
            dispatch: dispatchOf(launch, index === 0 ? writes : { pagesWritten: 0, bytesWritten: 0 }),
            before: staged.segments[index]!,
            pagesBefore: plan.before[index]!.length,
            bytesBefore: plan.before[index]!.reduce((sum, page) => sum + page.bytes, 0),
          }),
        ),
      ),
      staging: staged.staging,
      pagesWritten: writes.pagesWritten,
      bytesWritten: writes.bytesWritten,
      bytesStaged: staged.bytes,
      notes: Object.freeze(notes),
    });
    return { range, placed };
  }

  /** A launch's ranges where the replay placed them, with the page hashes before (from the record, or of the blobs in a version 1 record). */
  async #rangesWithHashes(launch: PlacedLaunch): Promise<PlacedCaptureRange[]> {
    return Promise.all(
      launch.record.memory.map(async (range, index) => {
        const pages = launch.pages[index]!;
        const hashesBefore = range.pageHashesBefore ?? (await Promise.all(pages.map((page) => this.#blobHash(page.blob))));
        return { address: launch.memory[index]!.address, bytes: range.bytes, pageBytes: launch.record.pageBytes, pages, hashesBefore, hashesAfter: range.pageHashesAfter };
      }),
    );
  }

  #blobHash(id: string): Promise<bigint> {
    let hash = this.#blobHashes.get(id);
    if (hash === undefined) {
      hash = readBlob(this.folder.directory, id).then((bytes) => pageHash(bytes));
      hash.catch(() => this.#blobHashes.delete(id));
      this.#blobHashes.set(id, hash);
    }
    return hash;
  }

  /** A launch's kernel loaded, its ranges placed (relocated, module globals found) and its parameter buffer rewritten to follow; no memory written. */
  async #placeLaunch(record: CaptureLaunch): Promise<PlacedLaunch> {
    const kernel = await this.#kernel(record);
    const memory: CaptureReplayRange[] = [];
    const pages: CapturePage[][] = [];
    const moved: AddressMove[] = [...this.#relocations];
    for (const range of record.memory) {
      const address =
        placementOf(range.kind) === 'module-global' ? await this.#globalAddress(kernel, record, range) : relocatedAddress(this.#relocations, range.base);
      if (placementOf(range.kind) === 'module-global' && address !== range.base) moved.push({ from: range.base, to: address, bytes: range.bytes });
      memory.push(Object.freeze({ address, bytes: range.bytes, kind: range.kind, label: range.label }));
      pages.push(pagesOf(address, range.bytes, record.pageBytes, range.pagesBefore));
    }
    const notes = record.shape.attributes.map(
      (attribute) => `launch attribute ${attribute.name} (${attribute.values.join(', ')}) of the captured launch is not applied by the replay`,
    );
    const parameters = relocateParameterWords(record.parameterBuffer, moved);
    const launchBytes = launchParameterBytes(kernel);
    if (launchBytes < parameters.buffer.length) {
      notes.push(`the parameter buffer's last ${parameters.buffer.length - launchBytes} bytes lie past kernel ${record.function}'s parameters in its module and are not passed (CUDA refuses a longer buffer)`);
    }
    if (this.#relocations.length > 0) {
      notes.push(
        `${this.#relocations.length} of ${this.regions.length} memory regions are not at their captured addresses (the driver would not place them there); ${parameters.rewritten} pointer${parameters.rewritten === 1 ? '' : 's'} of the parameter buffer follow them, pointers stored in memory do not`,
      );
    }
    return { record, kernel, memory, pages, parameters: parameters.buffer.subarray(0, launchBytes), relocatedRegions: this.#relocations.length, notes };
  }

  /**
   * Frees the mapped memory and the replay's queue; disposes the runtime when openCapture opened it.
   * Idempotent.
   */
  dispose(): Promise<void> {
    this.#disposal ??= (async () => {
      const allocations = await this.#allocations?.catch(() => [] as Allocation[]);
      await this.#queue.dispose();
      this.#staging.dispose();
      if (this.#ownsRuntime) {
        await this.runtime.dispose();
        return;
      }
      for (const allocation of allocations ?? []) (allocation as Allocation & Disposable)[Symbol.dispose]();
    })();
    return this.#disposal;
  }

  /** Same as {@link dispose}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #launchOf(launch: number | CaptureLaunch): CaptureLaunch {
    const sequence = typeof launch === 'number' ? launch : launch?.sequence;
    const record = this.folder.launches.find((candidate) => candidate.sequence === sequence);
    if (record === undefined) {
      const sequences = this.folder.launches.map((candidate) => candidate.sequence);
      throw argumentError(
        component,
        'launch',
        `launch ${describeValue(sequence)} is not a complete launch of ${this.folder.directory}`,
        `Pass one of its launches (${sequences.length === 0 ? 'it has none' : `sequences ${sequences.join(', ')}`})`,
      );
    }
    return record;
  }

  /**
   * Maps every region at its captured base (device memory with allocateAt, host memory with
   * allocateHostAt), once; {@link prepare} calls it. Create a tracker before, so that it sees the
   * allocations. A failed mapping frees what was made, and the next call tries again.
   * @throws {ArgumentError} (as a rejection) when an address cannot be had (naming what holds it).
   * @throws {DriverError} (as a rejection) when the driver cannot map it.
   */
  async map(): Promise<void> {
    await this.#mapRegions();
  }

  #mapRegions(): Promise<Allocation[]> {
    this.#allocations ??= (async () => {
      const made: Allocation[] = [];
      try {
        // Host memory away from device memory, then device memory in its 32 MiB windows, then the
        // host memory inside those windows (placementOrder).
        for (const region of placementOrder(this.regions)) made.push(await this.#place(region));
      } catch (error) {
        for (const allocation of made) (allocation as Allocation & Disposable)[Symbol.dispose]();
        this.#relocations.length = 0;
        this.#allocations = undefined;
        throw error;
      }
      return made;
    })();
    return this.#allocations;
  }

  /** One region at its captured base, or (as the placement allows) wherever the driver puts it. */
  async #place(region: CaptureRegion): Promise<Allocation> {
    const relocate = async (reason: string): Promise<Allocation> => {
      const allocation = region.placement === 'host' ? this.runtime.allocateHost(region.bytes, { pinned: true }) : this.agent.allocate(region.bytes);
      this.#relocations.push(Object.freeze({ from: region.address, to: allocation.address, bytes: region.bytes, placement: region.placement, reason }));
      return allocation;
    };
    if (this.#placement === 'relocate') return relocate("the placement is 'relocate'");
    const address = BigInt(region.address);
    try {
      return region.placement === 'host'
        ? await this.runtime.allocateHostAt(address, region.bytes)
        : await this.runtime.allocateAt(this.agent.id, address, region.bytes);
    } catch (error) {
      if (this.#placement === 'exact') throw error;
      return relocate(error instanceof Error ? error.message : String(error));
    }
  }

  #kernel(record: CaptureLaunch): Promise<KernelDescriptor> {
    const key = `${record.module}/${record.function}/${record.parameterBuffer.length}`;
    let kernel = this.#kernels.get(key);
    if (kernel === undefined) {
      kernel = (async () => {
        const image = await readBlob(this.folder.directory, record.module);
        await this.#checkArchitecture(record.module, image);
        // A buffer longer than the kernel's parameters passes only them (CUDA refuses more).
        const layout = moduleParameterLayouts(image).get(record.function);
        const size = layout === undefined ? record.parameterBuffer.length : Math.min(record.parameterBuffer.length, parameterExtent(layout));
        return this.runtime
          .loadKernel({
            image,
            name: record.function,
            parameters: size === 0 ? [] : [{ name: 'parameters', type: 'bytes', size, indirect: true }],
          })
          .catch((error: unknown) => {
            throw this.#ptxLoadError(record.module, image, error);
          });
      })();
      kernel.catch(() => this.#kernels.delete(key));
      this.#kernels.set(key, kernel);
    }
    return kernel;
  }

  /**
   * A module that is PTX text and failed to load: the driver could not compile it (a PTX ISA newer
   * than the driver takes, most often), said with the PTX's target and ISA and the device's
   * architecture. Other failures pass through as they are.
   */
  #ptxLoadError(moduleId: string, image: Uint8Array, error: unknown): unknown {
    const header = readPtxHeader(image);
    if (!(error instanceof DriverError) || header === null || 'problem' in header) return error;
    // The driver's own words (loadKernel's message between "could not be loaded: " and its fix), with the JIT's log.
    const said = /could not be loaded: (.*?)\. Check that the file/s.exec(error.message)?.[1] ?? error.code;
    return new DriverError({
      packageName: 'native',
      component,
      driver: error.driver,
      agentId: this.agent.id,
      operation: error.operation,
      code: error.code,
      cause: error,
      message: nativeMessage(
        component,
        `${this.folder.directory}: module ${moduleId} is PTX for .target ${header.target} (PTX ISA ${header.version}), and the driver could not compile it for ${this.agent.info.architecture}: ${said}`,
        `PTX of a newer ISA than the driver takes needs a newer driver (the PTX ISA of each CUDA release: docs.nvidia.com/cuda/parallel-thread-execution); replay on a machine whose driver is at least as new as the capture's, or update this one`,
      ),
    });
  }

  #checkArchitecture(moduleId: string, image: Uint8Array): Promise<void> {
    let check = this.#checkedModules.get(moduleId);
    if (check === undefined) {
      check = (async () => {
        const problem = architectureProblem(this.folder.manifest.device.architecture, this.agent.info.architecture, image, moduleId);
        if (problem === null) return;
        throw new UnsupportedError({
          packageName: 'native',
          component,
          driver: this.runtime.driver,
          feature: 'replay of a capture from another architecture',
          message: nativeMessage(component, `${this.folder.directory} cannot be replayed on agent ${this.agent.id}: ${problem}`, `Replay it on a ${this.folder.manifest.device.architecture} device, or capture a program built with PTX for ${this.agent.info.architecture} or an older architecture (nvcc -gencode arch=compute_XX,code=compute_XX)`),
        });
      })();
      this.#checkedModules.set(moduleId, check);
    }
    return check;
  }

  async #globalAddress(kernel: KernelDescriptor, record: CaptureLaunch, range: CaptureMemoryRange): Promise<number> {
    const global = await this.runtime.kernelGlobal(kernel, this.agent.id, range.label);
    if (global.bytes < range.bytes) {
      throw new CaptureFormatError({
        packageName: 'native',
        component,
        file: record.file,
        message: nativeMessage(
          component,
          `${record.file}: module global ${range.label} was captured with ${range.bytes} bytes at ${formatAddress(range.base)}, but the loaded module's is ${global.bytes} bytes`,
          'Capture the program again: the record does not match its module',
        ),
      });
    }
    return Number(global.address);
  }
}

/** The bytes of the parameter buffer a launch of this kernel passes (its one bytes parameter's size). */
function launchParameterBytes(kernel: KernelDescriptor): number {
  const [whole] = kernel.parameters;
  return whole?.type === 'bytes' ? whole.size! : 0;
}
