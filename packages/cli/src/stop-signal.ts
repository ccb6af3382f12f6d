import { exitCodes } from './exit-codes.js';

/** The signals that stop long work: SIGINT (Ctrl-C) and SIGTERM (`timeout`, containers, systemd, Slurm's time limit). */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** Every {@link StopSignal}. */
export const stopSignals: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/** The code the CLI exits with after `signal` stopped it: 128 + the signal's number, as a shell reports it. */
export function stopExitCode(signal: StopSignal): number {
  return signal === 'SIGTERM' ? exitCodes.terminated : exitCodes.interrupted;
}

/** How messages say that `signal` stopped the work: `interrupted` (Ctrl-C) or `terminated`. */
export function describeStop(signal: StopSignal): string {
  return signal === 'SIGTERM' ? 'terminated' : 'interrupted';
}
