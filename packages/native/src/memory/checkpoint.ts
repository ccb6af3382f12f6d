import { DisposedError } from '../errors/disposed-error.js';
import { DriverError } from '../errors/driver-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import type { NativeCheckpoint, NativeCheckpointResult } from '../addon/native-binding.js';
import type { RuntimeCore } from '../runtime/runtime-core.js';
import type { CheckpointSession, Checkpoints, Queue } from '../runtime/runtime-objects.js';
import { argumentError } from '../errors/validate.js';

const component = 'checkpoint';

/** A {@link CheckpointSession} over the addon's checkpoint (runtime-objects.ts describes each member). @internal */
export class CheckpointSessionHandle implements CheckpointSession {
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

  get saved(): boolean {
    return this.#saved;
  }

  get lastStepMilliseconds(): number {
    return this.#lastMilliseconds;
  }

  async save(): Promise<void> {
    this.#assertLive('save()');
    this.#saved = true;
    this.#settle(await this.#native.save());
  }

  async restore(): Promise<void> {
    this.#assertLive('restore()');
    if (!this.#saved) throw argumentError(component, 'restore', 'restore() was called before save()', 'Save a checkpoint first');
    this.#core.workIssued += 1;
    this.#settle(await this.#native.restore());
  }

  dispose(): Promise<void> {
    if (this.#disposal) return this.#disposal;
    const wasSaved = this.#saved;
    this.#saved = false;
    this.#disposal =
      this.#core.disposed || !wasSaved ? Promise.resolve() : this.#native.release().then((result) => this.#settle(result, true));
    return this.#disposal;
  }

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

/** The {@link Checkpoints} of a runtime whose driver has them (runtime-objects.ts describes each member). @internal */
export class CheckpointsHandle implements Checkpoints {
  readonly #core: RuntimeCore;
  #reason: string | null | undefined;

  /** @internal Made by the Runtime of a driver that has checkpoints. */
  constructor(core: RuntimeCore) {
    this.#core = core;
  }

  unavailableReason(): string | null {
    this.#core.assertLive(component, 'runtime.checkpoint.unavailableReason()');
    if (this.#reason === undefined) this.#reason = this.#core.native.checkpointUnavailableReason();
    return this.#reason;
  }

  async open(queue: Queue): Promise<CheckpointSession> {
    this.#core.assertLive(component, 'runtime.checkpoint.open()');
    const native = this.#core.nativeQueues.get(queue);
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
    return new CheckpointSessionHandle(this.#core, queue, opened);
  }
}
