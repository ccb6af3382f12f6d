import type { DriverName } from '../runtime/runtime-types.js';
import { KreplayError, type KreplayErrorOptions } from './kreplay-error.js';

/** Options of {@link DriverUnavailableError}. */
export interface DriverUnavailableErrorOptions extends KreplayErrorOptions {
  readonly driver: DriverName;
  /** Why, e.g. `libcuda.so.1 was not found`. Also set as the error's `cause`. */
  readonly reason: string;
}

/** The chosen driver cannot run in this process (its runtime library or device is missing). */
export class DriverUnavailableError extends KreplayError {
  override name = 'DriverUnavailableError';
  readonly driver: DriverName;
  readonly reason: string;

  constructor(options: DriverUnavailableErrorOptions) {
    super({ ...options, cause: options.cause ?? options.reason });
    this.driver = options.driver;
    this.reason = options.reason;
  }
}
