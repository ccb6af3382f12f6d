import type { Agent } from '../runtime/runtime-objects.js';
import type { DeviceAllocation } from '../memory/device-allocation.js';
import type { CopySegment, MemoryRange } from '../runtime/runtime-types.js';
import { contiguousRuns, runBytes, WRITE_BYTES, type CapturePage } from './capture-pages.js';

/** What {@link CaptureRangeStaging.stage} made. */
export interface StagedCopies {
  /** Per launch: copies from the staging to its pages (one per run of contiguous pages). */
  readonly segments: readonly (readonly CopySegment[])[];
  /** The staging's bytes in use; null when nothing is staged. */
  readonly staging: MemoryRange | null;
  readonly bytes: number;
}

/**
 * The device memory a capture replay stages the copies of a range in: one allocation, grown when a
 * range needs more, written again only when another range is staged (the range's copies only read
 * it). Freed by dispose.
 * @internal
 */
export class CaptureRangeStaging {
  readonly #directory: string;
  readonly #agent: Agent;
  #allocation: DeviceAllocation | undefined;
  /** What the allocation holds: the key of the range staged last. */
  #key: string | undefined;

  constructor(directory: string, agent: Agent) {
    this.#directory = directory;
    this.#agent = agent;
  }

  /**
   * Lays the pages of each launch out one run after another, and writes their bytes (from the
   * blobs) unless the range `key` is what the staging holds already.
   * @throws {CaptureFormatError} (as a rejection) when a blob cannot be read.
   * @throws {DriverError} (as a rejection) when the staging cannot be allocated or written.
   */
  async stage(key: string, before: readonly (readonly CapturePage[])[]): Promise<StagedCopies> {
    const runs = before.map((pages) => contiguousRuns(pages, WRITE_BYTES));
    const bytes = runs.flat().reduce((sum, run) => sum + run.reduce((total, page) => total + page.bytes, 0), 0);
    if (bytes === 0) return { segments: before.map(() => Object.freeze([])), staging: null, bytes: 0 };
    if (this.#allocation === undefined || this.#allocation.bytes < bytes) {
      this.dispose();
      this.#allocation = this.#agent.allocate(bytes);
    }
    const base = this.#allocation.address;
    if (this.#key !== key) {
      this.#key = undefined;
      await this.#write(base, runs.flat());
      this.#key = key;
    }
    let offset = 0;
    const segments = runs.map((launchRuns) =>
      Object.freeze(
        launchRuns.map((run) => {
          const length = run.reduce((total, page) => total + page.bytes, 0);
          const segment = Object.freeze({ source: base + offset, destination: run[0]!.address, bytes: length });
          offset += length;
          return segment;
        }),
      ),
    );
    return { segments, staging: Object.freeze({ address: base, bytes }), bytes };
  }

  /** Frees the staging. Idempotent. */
  dispose(): void {
    if (this.#allocation !== undefined && !this.#allocation.freed) this.#allocation.free();
    this.#allocation = undefined;
    this.#key = undefined;
  }

  /** Writes the runs' bytes one after another from `address`, in writes of at most WRITE_BYTES. */
  async #write(address: number, runs: readonly (readonly CapturePage[])[]): Promise<void> {
    let chunk: Uint8Array[] = [];
    let chunkBytes = 0;
    let at = address;
    const flush = async () => {
      if (chunkBytes === 0) return;
      const joined = new Uint8Array(chunkBytes);
      let offset = 0;
      for (const part of chunk) {
        joined.set(part, offset);
        offset += part.length;
      }
      await this.#agent.write(at, joined);
      at += chunkBytes;
      chunk = [];
      chunkBytes = 0;
    };
    for (const run of runs) {
      const bytes = await runBytes(this.#directory, run);
      if (chunkBytes + bytes.length > WRITE_BYTES) await flush();
      chunk.push(bytes);
      chunkBytes += bytes.length;
    }
    await flush();
  }
}
