import type { Agent, Queue } from '../runtime/runtime-objects.js';
import { contiguousRuns, runBytes, WRITE_BYTES, type CapturePage } from './capture-pages.js';

/** What a page holds, as far as the replay knows: the blob written there and the device's hash of it after. */
interface KnownPage {
  readonly blob: string;
  readonly hash: bigint;
}

/** What bringing pages up to date did. */
export interface PageWrites {
  readonly pagesWritten: number;
  readonly bytesWritten: number;
  /** Pages that already held their blob (unchanged since the replay wrote it), so were not written. */
  readonly pagesKept: number;
}

/**
 * The page contents a replay has put into memory, kept across launches so that only pages whose
 * content differs are written again. What a page holds is checked on the device before it is kept:
 * its hash now must equal its hash right after the replay wrote it (a kernel, a restore or the
 * program may have written it since).
 * @internal
 */
export class CapturePageState {
  readonly #known = new Map<string, KnownPage>();
  readonly #directory: string;
  readonly #agent: Agent;
  readonly #queue: Queue;

  constructor(directory: string, agent: Agent, queue: Queue) {
    this.#directory = directory;
    this.#agent = agent;
    this.#queue = queue;
  }

  /** Makes every page hold its blob, writing only pages that do not, with `pageBytes` pages for hashing. */
  async bringUpToDate(pages: readonly CapturePage[], pageBytes: number): Promise<PageWrites> {
    const candidates = pages.filter((page) => this.#known.get(keyOf(page))?.blob === page.blob);
    const kept = new Set<CapturePage>();
    if (candidates.length > 0) {
      const hashes = await this.#queue.hashPages(candidates.map(rangeOf), pageBytes);
      candidates.forEach((page, index) => {
        if (this.#known.get(keyOf(page))!.hash === hashes[index]) kept.add(page);
      });
    }
    const stale = pages.filter((page) => !kept.has(page));
    for (const page of stale) this.#known.delete(keyOf(page));
    let bytesWritten = 0;
    for (const run of contiguousRuns(stale, WRITE_BYTES)) {
      const bytes = await runBytes(this.#directory, run);
      await this.#agent.write(run[0]!.address, bytes);
      bytesWritten += bytes.length;
    }
    if (stale.length > 0) {
      const hashes = await this.#queue.hashPages(stale.map(rangeOf), pageBytes);
      stale.forEach((page, index) => this.#known.set(keyOf(page), { blob: page.blob, hash: hashes[index]! }));
    }
    return { pagesWritten: stale.length, bytesWritten, pagesKept: kept.size };
  }
}

function keyOf(page: CapturePage): string {
  return `${page.address}+${page.bytes}`;
}

function rangeOf(page: CapturePage): { readonly address: number; readonly bytes: number } {
  return { address: page.address, bytes: page.bytes };
}
