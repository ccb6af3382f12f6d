import type { Queue, TimingEvent } from '@kreplay/native';
import type { PassProvider } from './pass-provider.js';
import { passProviderSpecificationVersion } from './pass-provider.js';
import { requirePassCount } from './validate.js';

/** What {@link timingPasses} collects: each pass's device milliseconds, `null` for a pass that did not complete. */
export type PassTimings = (number | null)[];

/** A pass provider whose `collect` returns {@link PassTimings}. */
export interface TimingPassProvider extends PassProvider {
  collect(queue: Queue, completedPasses: readonly number[]): PassTimings;
}

interface PassEvents {
  before?: TimingEvent;
  after?: TimingEvent;
}

/**
 * A pass provider that gives every dispatch `count` passes and times each one on the device clock:
 * an event right before and right after each pass's kernel.
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
  return {
    specificationVersion: passProviderSpecificationVersion,
    name: `timing(${passes})`,
    passCount: () => passes,
    beginPass(pass, queue) {
      const events = eventsOf(queue, pass, pass === 1);
      events.before = queue.recordEvent();
      events.after = undefined;
    },
    endPass(pass, queue) {
      eventsOf(queue, pass, false).after = queue.recordEvent();
    },
    collect(queue, completedPasses) {
      const events = windows.get(queue.id) ?? [];
      windows.delete(queue.id);
      return Array.from(events, (pass, index) => {
        const { before, after } = pass ?? {};
        const ran = completedPasses.includes(index + 1) && before?.completed && after?.completed;
        return ran ? after!.elapsedMillisecondsSince(before!) : null;
      });
    },
  };
}
