import type { NativeEvent } from '../addon/native-binding.js';
import { runtimeDisposedError, type RuntimeCore } from '../runtime/runtime-core.js';
import type { Agent, TimingEvent } from '../runtime/runtime-objects.js';
import { argumentError } from '../errors/validate.js';

/** The {@link TimingEvent}s of a queue, over the addon's events (runtime-objects.ts describes each member). @internal */
export class TimingEventHandle implements TimingEvent {
  readonly agent: Agent;
  readonly #core: RuntimeCore;
  readonly #native: NativeEvent;

  /** @internal Made by {@link Queue.recordEvent}. */
  constructor(core: RuntimeCore, agent: Agent, native: NativeEvent) {
    this.#core = core;
    this.agent = agent;
    this.#native = native;
    core.nativeEvents.set(this, native);
  }

  get completed(): boolean {
    return this.#native.completed();
  }

  synchronize(): Promise<void> {
    if (this.#core.disposed && !this.completed) {
      return Promise.reject(runtimeDisposedError('event', 'TimingEvent.synchronize()'));
    }
    return this.#native.synchronize();
  }

  elapsedMillisecondsSince(earlier: TimingEvent): number {
    if (!(earlier instanceof TimingEventHandle) || earlier.agent !== this.agent) {
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
