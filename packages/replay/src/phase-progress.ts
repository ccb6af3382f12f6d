import type { Queue } from '@kreplay/native';

/** The failed operation's index from a queue's error, when the driver could tell. */
export function failedOperationIndex(error: unknown): number | null {
  const index = (error as { operationIndex?: unknown } | null)?.operationIndex;
  return typeof index === 'number' && index >= 0 ? index : null;
}

/**
 * How far a batch of phases got. A queue numbers its work operations (`queue.workEnqueued`) and a
 * failure names the failed one (`DriverError.operationIndex`); noting the count at the end of each
 * phase tells which phase failed without any extra work on the queue. When the driver cannot name
 * the failed operation, no phase counts as completed.
 */
export class PhaseProgress {
  #start = 0;
  readonly #ends = new Map<number, number>();

  /** Notes where a batch begins; call before enqueueing it. */
  begin(queue: Queue): void {
    this.#ends.clear();
    this.#start = queue.workEnqueued;
  }

  /** Notes the end of phase `slot`; call right after enqueueing it. */
  end(queue: Queue, slot: number): void {
    this.#ends.set(slot, queue.workEnqueued);
  }

  /** Whether phase `slot` ran to its end, given the batch failed with `error`. */
  completed(slot: number, error: unknown): boolean {
    const failed = failedOperationIndex(error);
    const end = this.#ends.get(slot);
    return failed !== null && end !== undefined && end <= failed;
  }

  /** Whether the failure belongs to work enqueued before the batch began. */
  failedBefore(error: unknown): boolean {
    const failed = failedOperationIndex(error);
    return failed !== null && failed < this.#start;
  }
}
