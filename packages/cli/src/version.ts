declare const KREPLAY_CLI_VERSION: string | undefined;

/** The version of the kreplay CLI, fixed at build time. */
export const cliVersion: string =
  typeof KREPLAY_CLI_VERSION === 'string' ? KREPLAY_CLI_VERSION : '0.0.0-development';
