import { KreplayError } from '@kreplay/native';

/** A file that is not a readable bench report: missing, not JSON, foreign, or of another version. */
export class BenchReportError extends KreplayError {
  override name = 'BenchReportError';
  /** The file (or source name) at fault. */
  readonly file: string;

  /** `what` and `fix` are sentences without their final period. */
  constructor(file: string, what: string, fix: string, cause?: unknown) {
    super({ packageName: 'bench', component: 'report', message: `[bench] [report] ${file}: ${what}. ${fix}.`, cause });
    this.file = file;
  }
}
