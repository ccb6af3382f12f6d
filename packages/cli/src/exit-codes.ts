/** The exit codes of the `kreplay` command. */
export const exitCodes = {
  /** The work was done (and, for compare, nothing regressed). */
  ok: 0,
  /** The work failed: a driver error, a failed verification, a regression found by compare, nothing measured. */
  failed: 1,
  /** A usage or input error: a bad option, an unusable input file or output path; nothing was measured. */
  usage: 2,
  /** Interrupted by Ctrl-C (SIGINT), after writing what was kept. */
  interrupted: 130,
  /** Terminated by SIGTERM (`timeout`, a container or job stopping), after writing what was kept. */
  terminated: 143,
} as const;

/** The exit codes as `--help` and the README list them. */
export const exitCodesHelp = `
Exit codes:
  0    ok
  1    the work failed, or compare found a regression
  2    usage or input error (bad option, unusable input file or output path)
  130  interrupted (Ctrl-C), after writing what was measured so far
  143  terminated (SIGTERM), after writing what was measured so far`;
