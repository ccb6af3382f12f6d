import type { Agent } from '../runtime/agent.js';
import type { NativeEvent } from '../addon/native-binding.js';
import { runtimeDisposedError, type RuntimeCore } from '../runtime/runtime-core.js';
import { argumentError } from '../errors/validate.js';

const nativeEvents = new WeakMap<TimingEvent, NativeEvent>();

/** The addon's event behind a TimingEvent, for {@link Queue.waitForEvent}. @internal */
export function nativeEventOf(event: TimingEvent): NativeEvent | undefined {
  return nativeEvents.get(event);
}

/**
 * A point in a queue's work, from {@link Queue.recordEvent}: it completes (with a device
 * timestamp) when the queue reaches it, even when the queue skipped failed work before it.
 */
export class TimingEvent {
  /** The agent of the queue that recorded it. */
  readonly agent: Agent;
  readonly #core: RuntimeCore;
  readonly #native: NativeEvent;

  /** @internal Made by {@link Queue.recordEvent}. */
  constructor(core: RuntimeCore, agent: Agent, native: NativeEvent) {
    this.#core = core;
    this.agent = agent;
    this.#native = native;
    nativeEvents.set(this, native);
  }

  /** Whether the queue has reached the event. */
  get completed(): boolean {
    return this.#native.completed();
  }

  /**
   * Resolves when the event completes (at once if it has).
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  synchronize(): Promise<void> {
    if (this.#core.disposed && !this.completed) {
      return Promise.reject(runtimeDisposedError('event', 'TimingEvent.synchronize()'));
    }
    return this.#native.synchronize();
  }

  /**
   * Milliseconds from `earlier` to this event, by the device clock (negative if `earlier` completed later).
   * @throws {ArgumentError} when `earlier` is not a TimingEvent of the same agent, or either event has not completed.
   */
  elapsedMillisecondsSince(earlier: TimingEvent): number {
    if (!(earlier instanceof TimingEvent) || earlier.agent !== this.agent) {
      throw argumentError(
        'event',
        'earlier',
        'elapsedMillisecondsSince() needs a TimingEvent recorded on the same agent',
        'Record both events on queues of one agent',
      );
    }
    if (!this.completed || !earlier.completed) {
      throw argumentError(
        'event',
        this.completed ? 'earlier' : 'this',
        `the ${this.completed ? 'earlier' : 'later'} event has not completed yet`,
        'Await event.synchronize() (or the queue\'s synchronize()) on both events first',
      );
    }
    return (this.#native.timestampNanoseconds() - earlier.#native.timestampNanoseconds()) / 1e6;
  }
}
