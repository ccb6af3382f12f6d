import type { DriverName } from '../runtime/runtime-types.js';
import { KreplayError, type KreplayErrorOptions } from './kreplay-error.js';

/** Options of {@link UnsupportedError}. */
export interface UnsupportedErrorOptions extends KreplayErrorOptions {
  readonly driver: DriverName;
  /** What the driver cannot do, e.g. `user kernels`. */
  readonly feature: string;
}

/** The driver does not provide a feature. */
export class UnsupportedError extends KreplayError {
  override name = 'UnsupportedError';
  readonly driver: DriverName;
  readonly feature: string;

  constructor(options: UnsupportedErrorOptions) {
    super(options);
    this.driver = options.driver;
    this.feature = options.feature;
  }
}
