import { KreplayError, type KreplayErrorOptions } from './kreplay-error.js';

/** Options of {@link DisposedError}. */
export interface DisposedErrorOptions extends KreplayErrorOptions {
  /** What was disposed: `Runtime`, `Queue`, ... */
  readonly objectName: string;
}

/** An object was used after it (or its runtime) was disposed. */
export class DisposedError extends KreplayError {
  override name = 'DisposedError';
  readonly objectName: string;

  constructor(options: DisposedErrorOptions) {
    super(options);
    this.objectName = options.objectName;
  }
}
