import { KreplayError, type KreplayErrorOptions } from './kreplay-error.js';

/** Options of {@link ArgumentError}. */
export interface ArgumentErrorOptions extends KreplayErrorOptions {
  /** The argument at fault, e.g. `plan[3].bytes`. */
  readonly argument: string;
}

/** A caller passed an invalid argument; nothing was done. */
export class ArgumentError extends KreplayError {
  override name = 'ArgumentError';
  readonly argument: string;

  constructor(options: ArgumentErrorOptions) {
    super(options);
    this.argument = options.argument;
  }
}
