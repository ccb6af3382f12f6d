import { KreplayError } from '@kreplay/native';

/** A file that is not a readable profile: missing, not JSON, foreign, of another version, or malformed. */
export class ProfileReportError extends KreplayError {
  override name = 'ProfileReportError';
  /** The file (or source name) at fault. */
  readonly file: string;

  /** `what` and `fix` are sentences without their final period. */
  constructor(file: string, what: string, fix: string, cause?: unknown) {
    super({ packageName: 'bench', component: 'profile', message: `[bench] [profile] ${file}: ${what}. ${fix}.`, cause });
    this.file = file;
  }
}
