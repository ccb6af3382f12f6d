import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SlurmError } from './slurm-error.js';

const run = promisify(execFile);

/** How to call the Slurm client tools (paths or names on PATH), and the environment to give them. */
export interface SlurmTools {
  readonly sbatch: string;
  readonly squeue: string;
  readonly scontrol: string;
  readonly sinfo: string;
  readonly environment?: NodeJS.ProcessEnv;
}

/** The Slurm tools found on PATH. */
export const defaultSlurmTools: SlurmTools = { sbatch: 'sbatch', squeue: 'squeue', scontrol: 'scontrol', sinfo: 'sinfo' };

/**
 * Runs one Slurm client command and returns its standard output.
 * @throws SlurmError when the tool is missing (with how to install it) or exits non-zero (with its stderr).
 */
export async function runSlurm(tools: SlurmTools, tool: keyof Omit<SlurmTools, 'environment'>, args: readonly string[]): Promise<string> {
  const command = tools[tool];
  try {
    const { stdout } = await run(command, [...args], { env: tools.environment ?? process.env, maxBuffer: 16 * 2 ** 20 });
    return stdout;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string; code?: string | number };
    if (failure.code === 'ENOENT') {
      throw new SlurmError(
        `${command} was not found on PATH`,
        "Run on a machine with Slurm's client tools (Debian: apt-get install slurm-client), or run kreplay bench without --slurm",
      );
    }
    const detail = (failure.stderr ?? '').trim().split('\n').filter(Boolean).slice(-2).join(' ') || failure.message;
    throw new SlurmError(`${command} ${args.join(' ')} failed: ${detail}`, 'Check the Slurm cluster (sinfo) and the options given to --slurm');
  }
}
