import type { Agent, Queue } from '../runtime/runtime-objects.js';
import type { CaptureRange, CaptureRangeCheck } from './capture-dispatch.js';
import { contiguousRuns, runBytes, WRITE_BYTES, type CapturePage } from './capture-pages.js';
import { checkPostLaunchHashes, type PostLaunchCheck } from './post-launch-hashes.js';

type PageRange = { readonly address: number; readonly bytes: number };

/** Pages known to differ from the program's memory, by address (they never overlap: each is a page of a launch's range as the check found it). */
class WrongPages {
  #pages: PageRange[] = [];

  add(pages: readonly PageRange[]): void {
    const known = new Set(this.#pages.map((page) => page.address));
    this.#pages.push(...pages.filter((page) => !known.has(page.address)));
    this.#pages.sort((a, b) => a.address - b.address);
  }

  /** The index of the first wrong page ending after `address`. */
  #firstEndingAfter(address: number): number {
    let low = 0;
    let high = this.#pages.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const page = this.#pages[middle]!;
      if (page.address + page.bytes <= address) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  overlaps(page: PageRange): boolean {
    const candidate = this.#pages[this.#firstEndingAfter(page.address)];
    return candidate !== undefined && candidate.address < page.address + page.bytes;
  }

  /** Forgets the wrong pages that `written` overlap (they hold the program's bytes again). */
  forget(written: readonly PageRange[]): void {
    const gone = new Set<PageRange>();
    for (const page of written) {
      for (let index = this.#firstEndingAfter(page.address); index < this.#pages.length && this.#pages[index]!.address < page.address + page.bytes; index += 1) gone.add(this.#pages[index]!);
    }
    if (gone.size > 0) this.#pages = this.#pages.filter((page) => !gone.has(page));
  }
}

/** The pages of a post-launch check's mismatches. */
function mismatchedPages(check: PostLaunchCheck, pageBytes: number): PageRange[] {
  return check.mismatches.flatMap((mismatch) =>
    mismatch.pages.map((page) => ({ address: mismatch.address + page * pageBytes, bytes: Math.min(pageBytes, mismatch.bytes - page * pageBytes) })),
  );
}

/**
 * Runs a prepared range once on `queue`, each launch after its copies before, and checks the memory
 * after each launch against the program's (checkPostLaunchHashes). Before a launch, the pages it
 * reaches (`pages`, per launch) that an earlier launch left different and its copies do not cover
 * are written from their blobs (the program's memory before this launch), so each launch is
 * checked from the program's memory.
 * @internal
 */
export async function checkRangeRun(
  range: CaptureRange,
  pages: readonly (readonly CapturePage[])[],
  target: { readonly agent: Agent; readonly directory: string; readonly queue: Queue },
): Promise<CaptureRangeCheck> {
  const { agent, directory, queue } = target;
  const wrong = new WrongPages();
  const checks: PostLaunchCheck[] = [];
  let pagesRepaired = 0;
  for (const [index, launch] of range.launches.entries()) {
    // The copies before the launch write the program's bytes: what they cover needs no repair.
    wrong.forget(launch.before.map((segment) => ({ address: segment.destination, bytes: segment.bytes })));
    const repair = pages[index]!.filter((page) => wrong.overlaps(page));
    for (const run of contiguousRuns(repair, WRITE_BYTES)) await agent.write(run[0]!.address, await runBytes(directory, run));
    wrong.forget(repair);
    pagesRepaired += repair.length;
    for (const segment of launch.before) queue.enqueueCopy([segment]);
    const { kernel, args, launch: shape, expectedPageHashes } = launch.dispatch;
    queue.enqueueKernel(kernel, args, shape);
    const check = await checkPostLaunchHashes(queue, expectedPageHashes);
    wrong.add(mismatchedPages(check, expectedPageHashes.pageBytes));
    checks.push(check);
  }
  return Object.freeze({ launches: Object.freeze(checks), pagesRepaired });
}
