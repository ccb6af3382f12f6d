import type { Queue, TimingEvent } from '@kreplay/native';
import type { PassProvider } from './pass-provider.js';
import { passProviderSpecificationVersion } from './pass-provider.js';
import { requirePassCount } from './validate.js';

/** What {@link timingPasses} collects: each pass's device milliseconds, `null` for a pass that did not complete. */
export type PassTimings = (number | null)[];

/** A pass provider whose `collect` returns {@link PassTimings}, and `collectRange` one per dispatch of a range. */
export interface TimingPassProvider extends PassProvider {
  collect(queue: Queue, completedPasses: readonly number[]): PassTimings;
  beginDispatch(pass: number, index: number, queue: Queue): void;
  endDispatch(pass: number, index: number, queue: Queue): void;
  /** Per dispatch of the range, its device milliseconds in each pass (`null` where the pass did not complete). */
  collectRange(queue: Queue, completedPasses: readonly number[], dispatches: number): PassTimings[];
}

interface PassEvents {
  before?: TimingEvent;
  after?: TimingEvent;
  /** In a range: the events around each dispatch. */
  dispatches?: PassEvents[];
}

/**
 * A pass provider that gives every dispatch `count` passes and times each one on the device clock:
 * an event right before and right after each pass's kernel. In a range it also times each dispatch
 * of each pass (an event before and after each one's kernel).
 * @throws {ArgumentError} when `count` is not an integer >= 1.
 */
export function timingPasses(count: number): TimingPassProvider {
  const passes = requirePassCount('timing-passes', count);
  const windows = new Map<number, PassEvents[]>();
  const eventsOf = (queue: Queue, pass: number, fresh: boolean): PassEvents => {
    let events = windows.get(queue.id);
    if (events === undefined || fresh) windows.set(queue.id, (events = []));
    return (events[pass - 1] ??= {});
  };
  const milliseconds = (events: PassEvents | undefined, ran: boolean): number | null => {
    const { before, after } = events ?? {};
    return ran && before?.completed && after?.completed ? after.elapsedMillisecondsSince(before) : null;
  };
  const take = (queue: Queue): PassEvents[] => {
    const events = windows.get(queue.id) ?? [];
    windows.delete(queue.id);
    return events;
  };
  return {
    specificationVersion: passProviderSpecificationVersion,
    name: `timing(${passes})`,
    passCount: () => passes,
    beginPass(pass, queue) {
      const events = eventsOf(queue, pass, pass === 1);
      events.before = queue.recordEvent();
      events.after = undefined;
      events.dispatches = undefined;
    },
    endPass(pass, queue) {
      eventsOf(queue, pass, false).after = queue.recordEvent();
    },
    beginDispatch(pass, index, queue) {
      const events = eventsOf(queue, pass, false);
      (events.dispatches ??= [])[index] = { before: queue.recordEvent() };
    },
    endDispatch(pass, index, queue) {
      const dispatch = eventsOf(queue, pass, false).dispatches?.[index];
      if (dispatch !== undefined) dispatch.after = queue.recordEvent();
    },
    collect(queue, completedPasses) {
      return Array.from(take(queue), (pass, index) => milliseconds(pass, completedPasses.includes(index + 1)));
    },
    collectRange(queue, completedPasses, dispatches) {
      const events = take(queue);
      return Array.from({ length: dispatches }, (_, index) =>
        Array.from(events, (pass, passIndex) => milliseconds(pass?.dispatches?.[index], completedPasses.includes(passIndex + 1))),
      );
    },
  };
}
