import { KreplayError } from '@kreplay/native';

/** A Slurm tool was missing or refused what was asked of it. */
export class SlurmError extends KreplayError {
  override name = 'SlurmError';

  /** `what` and `fix` are sentences without their final period. */
  constructor(what: string, fix: string) {
    super({ packageName: 'bench', component: 'slurm', message: `[bench] [slurm] ${what}. ${fix}.` });
  }
}
