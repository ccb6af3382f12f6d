import { KreplayError, type KreplayErrorOptions } from './kreplay-error.js';

/** Options of {@link OutOfMemoryError}. */
export interface OutOfMemoryErrorOptions extends KreplayErrorOptions {
  /** The agent whose memory ran out; `null` for host memory. */
  readonly agentId: number | null;
  /** The size asked for. */
  readonly bytes: number;
  /** What was free when it failed. */
  readonly availableBytes: number;
}

/** An allocation did not fit. */
export class OutOfMemoryError extends KreplayError {
  override name = 'OutOfMemoryError';
  readonly agentId: number | null;
  readonly bytes: number;
  readonly availableBytes: number;

  constructor(options: OutOfMemoryErrorOptions) {
    super(options);
    this.agentId = options.agentId;
    this.bytes = options.bytes;
    this.availableBytes = options.availableBytes;
  }
}
