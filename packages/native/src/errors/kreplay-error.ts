/** What every kreplay error carries. */
export interface KreplayErrorOptions {
  /** The package that raised it, e.g. `native` or `tracker`. */
  readonly packageName: string;
  /** The part of the package, e.g. `queue`. */
  readonly component: string;
  /** The whole message: `[package] [component] what happened. how to fix it.` */
  readonly message: string;
  /** The underlying error or reason, if any. */
  readonly cause?: unknown;
}

/**
 * The base class of every error kreplay packages throw on purpose. Its message reads
 * `[package] [component] what happened. how to fix it.`
 */
export class KreplayError extends Error {
  override name = 'KreplayError';
  readonly packageName: string;
  readonly component: string;

  constructor(options: KreplayErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.packageName = options.packageName;
    this.component = options.component;
  }
}
