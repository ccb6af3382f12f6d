import { DisposedError } from '../errors/disposed-error.js';
import { DriverError } from '../errors/driver-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import type { NativeCheckpoint, NativeCheckpointResult } from '../addon/native-binding.js';
import { nativeQueueOf, Queue } from '../queue/queue.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import { argumentError } from '../errors/validate.js';

const component = 'checkpoint';

/**
 * A checkpoint of every allocation of one queue's context (the CUPTI Checkpoint API on the cuda
 * driver), from {@link Checkpoints.open}. Each step is enqueued on the queue: it runs after the work
 * enqueued before it, once the whole context is idle, and work enqueued after it waits for it.
 */
export class CheckpointSession implements AsyncDisposable {
  /** The queue whose context it saves. */
  readonly queue: Queue;
  readonly #core: RuntimeCore;
  readonly #native: NativeCheckpoint;
  #saved = false;
  #lastMilliseconds = 0;
  #disposal: Promise<void> | undefined;

  /** @internal Made by {@link Checkpoints.open}. */
  constructor(core: RuntimeCore, queue: Queue, native: NativeCheckpoint) {
    this.#core = core;
    this.queue = queue;
    this.#native = native;
  }

  /** Whether a save was enqueued since the session opened or was last released. */
  get saved(): boolean {
    return this.#saved;
  }

  /**
   * Milliseconds the last completed step took inside CUPTI (host clock; not counting the wait for
   * earlier work and an idle context).
   */
  get lastStepMilliseconds(): number {
    return this.#lastMilliseconds;
  }

  /**
   * Saves every allocation of the context (device memory first, then host), replacing an earlier save.
   * @throws {DriverError} (as a rejection) when CUPTI or CUDA fails, e.g. code `CUPTI_ERROR_OUT_OF_MEMORY`.
   * @throws {DisposedError} (as a rejection) when the session, its queue or its runtime was disposed.
   */
  async save(): Promise<void> {
    this.#assertLive('save()');
    this.#saved = true;
    this.#settle(await this.#native.save());
  }

  /**
   * Puts every allocation of the context back as the last save found it.
   * @throws {ArgumentError} (as a rejection) when nothing was saved.
   * @throws {DriverError} (as a rejection) when CUPTI or CUDA fails.
   * @throws {DisposedError} (as a rejection) when the session, its queue or its runtime was disposed.
   */
  async restore(): Promise<void> {
    this.#assertLive('restore()');
    if (!this.#saved) throw argumentError(component, 'restore', 'restore() was called before save()', 'Save a checkpoint first');
    this.#core.workIssued += 1;
    this.#settle(await this.#native.restore());
  }

  /**
   * Frees what the checkpoint holds (cuptiCheckpointFree), after the queue's earlier work. Idempotent.
   * @throws {DriverError} (as a rejection) when CUPTI fails to free it.
   */
  dispose(): Promise<void> {
    if (this.#disposal) return this.#disposal;
    const wasSaved = this.#saved;
    this.#saved = false;
    this.#disposal =
      this.#core.disposed || !wasSaved ? Promise.resolve() : this.#native.release().then((result) => this.#settle(result, true));
    return this.#disposal;
  }

  /** Same as {@link dispose}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #assertLive(call: string): void {
    this.#core.assertLive(component, `CheckpointSession.${call}`);
    if (this.#disposal) {
      throw new DisposedError({
        packageName: 'native',
        component,
        objectName: 'CheckpointSession',
        message: nativeMessage(component, `${call} was called on a disposed checkpoint session`, 'Open a new one with runtime.checkpoint.open(queue)'),
      });
    }
  }

  #settle(result: NativeCheckpointResult, releasing = false): void {
    const { error } = result;
    if (error === null) {
      this.#lastMilliseconds = result.milliseconds;
      return;
    }
    if (error.code === 'queue-disposed') {
      throw new DisposedError({
        packageName: 'native',
        component,
        objectName: 'Queue',
        message: nativeMessage(component, `${error.operation} could not run: queue ${this.queue.id} was disposed`, 'Keep the queue until the session is disposed'),
      });
    }
    const fix =
      error.code === 'CUPTI_ERROR_OUT_OF_MEMORY'
        ? 'Free device or host memory, or checkpoint a smaller footprint'
        : releasing
          ? 'The checkpoint memory may stay allocated until the runtime is disposed'
          : 'Check that the context is usable (a failed kernel leaves it unusable) and that CUPTI matches the driver';
    throw new DriverError({
      packageName: 'native',
      component,
      driver: this.#core.driver,
      agentId: this.queue.agent.id,
      operation: error.operation,
      code: error.code,
      message: nativeMessage(component, `${error.operation} on queue ${this.queue.id} failed with ${error.code}: ${error.message}`, fix),
    });
  }
}

/**
 * The checkpoint facility of a runtime (`runtime.checkpoint`): on the cuda driver, the CUPTI
 * Checkpoint API (libcheckpoint.so, loaded at first use). Absent on drivers without one.
 */
export class Checkpoints {
  readonly #core: RuntimeCore;
  #reason: string | null | undefined;

  /** @internal Made by the Runtime of a driver that has checkpoints. */
  constructor(core: RuntimeCore) {
    this.#core = core;
  }

  /**
   * Why checkpoints cannot be taken in this process (e.g. `libcheckpoint.so was not found (...)`), or
   * null when they can. Loads CUPTI's libraries the first time (a few milliseconds, once per process).
   * @throws {DisposedError} when the runtime was disposed.
   */
  unavailableReason(): string | null {
    this.#core.assertLive(component, 'runtime.checkpoint.unavailableReason()');
    if (this.#reason === undefined) this.#reason = this.#core.native.checkpointUnavailableReason();
    return this.#reason;
  }

  /**
   * Opens a checkpoint session on `queue`'s context.
   * @throws {ArgumentError} (as a rejection) when queue is not a live Queue of this runtime.
   * @throws {UnsupportedError} (as a rejection) when CUPTI's checkpoint library cannot be loaded; the message says why.
   * @throws {DisposedError} (as a rejection) when the runtime was disposed.
   */
  async open(queue: Queue): Promise<CheckpointSession> {
    this.#core.assertLive(component, 'runtime.checkpoint.open()');
    const native = queue instanceof Queue ? nativeQueueOf(queue) : undefined;
    if (native === undefined || !this.#core.queues.has(queue)) {
      throw argumentError(component, 'queue', 'open() needs a live Queue of this runtime', 'Pass a queue from agent.createQueue() that was not disposed');
    }
    const opened = await this.#core.native.openCheckpoint(native);
    if ('code' in opened) {
      const what = `the CUPTI Checkpoint API is not available: ${opened.message}`;
      throw opened.code === 'cupti-unavailable'
        ? new UnsupportedError({
            packageName: 'native',
            component,
            driver: this.#core.driver,
            feature: 'checkpoint',
            message: nativeMessage(component, what, 'Install CUPTI (the CUDA toolkit\'s extras/CUPTI), or set KREPLAY_CUPTI_LIBRARY_DIR to the folder holding libcheckpoint.so and libcupti.so'),
          })
        : new DriverError({
            packageName: 'native',
            component,
            driver: this.#core.driver,
            agentId: queue.agent.id,
            operation: 'checkpoint-open',
            code: opened.code,
            message: nativeMessage(component, `opening a checkpoint failed with ${opened.code}: ${opened.message}`, 'Dispose the runtime and open a new one'),
          });
    }
    return new CheckpointSession(this.#core, queue, opened);
  }
}
