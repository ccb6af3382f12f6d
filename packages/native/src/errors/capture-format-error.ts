import { KreplayError, type KreplayErrorOptions } from './kreplay-error.js';

/** Options of {@link CaptureFormatError}. */
export interface CaptureFormatErrorOptions extends KreplayErrorOptions {
  /** The file at fault, relative to the capture folder, e.g. `manifest.json`. */
  readonly file: string;
  /** The field at fault, e.g. `notCaptured.graph-launch`; absent when the file as a whole is. */
  readonly field?: string;
}

/** A capture folder, or a file in it, is missing, damaged or not in a format this version reads. */
export class CaptureFormatError extends KreplayError {
  override name = 'CaptureFormatError';
  readonly file: string;
  readonly field: string | undefined;

  constructor(options: CaptureFormatErrorOptions) {
    super(options);
    this.file = options.file;
    this.field = options.field;
  }
}
