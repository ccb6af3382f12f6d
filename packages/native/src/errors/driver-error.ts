import type { DriverName } from '../runtime/runtime-types.js';
import { KreplayError, type KreplayErrorOptions } from './kreplay-error.js';

/** Options of {@link DriverError}. */
export interface DriverErrorOptions extends KreplayErrorOptions {
  readonly driver: DriverName;
  readonly agentId: number | null;
  /** The failed operation: `copy`, `hash`, `conditional-copy`, `kernel`, `open`, ... */
  readonly operation: string;
  /** e.g. `injected-fault`, `invalid-page-list`, `CUDA_ERROR_...`. */
  readonly code: string;
  /** Which work operation of its queue failed (compare with `Queue.workEnqueued`); null when unknown. */
  readonly operationIndex?: number | null;
}

/** A driver operation failed (on a queue, it is reported by the queue's next synchronize). */
export class DriverError extends KreplayError {
  override name = 'DriverError';
  readonly driver: DriverName;
  readonly agentId: number | null;
  readonly operation: string;
  readonly code: string;
  /** Which work operation of its queue failed (compare with `Queue.workEnqueued`); null when unknown. */
  readonly operationIndex: number | null;

  constructor(options: DriverErrorOptions) {
    super(options);
    this.driver = options.driver;
    this.agentId = options.agentId;
    this.operation = options.operation;
    this.code = options.code;
    this.operationIndex = options.operationIndex ?? null;
  }
}
