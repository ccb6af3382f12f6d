import { KreplayError } from '@kreplay/native';

/** What {@link capturedLaunchFailure} words. */
export interface CapturedLaunchFailure {
  /** The command, e.g. `replay`. */
  readonly command: string;
  /** What went wrong with the launches, e.g. `did not reproduce the program`. */
  readonly what: string;
  /** Each launch that failed, named with its outcome: `3 gemm (mismatch)`. */
  readonly launches: readonly string[];
  /** How to look into the failed launches (a sentence without its period). */
  readonly launchFix: string;
  /** How many records of the folder were damaged. */
  readonly damaged: number;
  /** The launches the command ran, failed or not. */
  readonly ran: number;
}

/**
 * The error of a command over a capture in which some launches failed or some records were damaged
 * (`[cli] [replay] 2 of 5 captured launches did not reproduce the program: ...`); undefined when
 * none did and none was.
 */
export function capturedLaunchFailure(failure: CapturedLaunchFailure): KreplayError | undefined {
  const { launches, damaged } = failure;
  if (launches.length === 0 && damaged === 0) return undefined;
  const which = [...launches, ...(damaged > 0 ? [`${damaged} damaged record${damaged === 1 ? '' : 's'} (each listed with its reason)`] : [])].join(', ');
  const fixes = [...(launches.length > 0 ? [failure.launchFix] : []), ...(damaged > 0 ? ['capture the program again for the damaged launches (kreplay capture -o a new folder)'] : [])].join('; ');
  return new KreplayError({
    packageName: 'cli',
    component: failure.command,
    message: `[cli] [${failure.command}] ${launches.length + damaged} of ${failure.ran + damaged} captured launches ${failure.what}: ${which}. ${fixes.charAt(0).toUpperCase()}${fixes.slice(1)}.`,
  });
}
