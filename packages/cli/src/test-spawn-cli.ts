import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built `kreplay` command (`pnpm build` makes it). */
export const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** How a spawned `kreplay` ended: its exit code, or the signal that ended it, and what it printed. */
export interface SpawnedCliResult {
  readonly exit: string;
  readonly stdout: string;
  readonly stderr: string;
}

/** What {@link spawnCli} does to the child while it runs. */
export interface SpawnCliOptions {
  /** Close the read end of its stdout as soon as it starts, or once it printed something (`| head -1`). */
  readonly closeStdout?: 'at-start' | 'after-first-output';
  /** Called with all its stderr so far whenever more arrives; may signal the child. */
  readonly onStderr?: (stderr: string, child: ChildProcess) => void;
  /** Its environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * For tests: runs the built `kreplay` as a child process, its stdout and stderr pipes, and waits for
 * it to end.
 */
export async function spawnCli(args: readonly string[], options: SpawnCliOptions = {}): Promise<SpawnedCliResult> {
  const child = spawn(process.execPath, [binPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  let stdout = '';
  let stderr = '';
  if (options.closeStdout === 'at-start') child.stdout.destroy();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (options.closeStdout === 'after-first-output') child.stdout.destroy();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    options.onStderr?.(stderr, child);
  });
  // 'close': it exited and its stdio is read to the end.
  const exit = await new Promise<string>((resolve) => child.on('close', (code, signal) => resolve(signal ?? String(code))));
  return { exit, stdout, stderr };
}

/** Whether a bench's stderr shows a progress line with at least one run measured (`bench quick: 3/60 runs`). */
export function benchMeasuredARun(stderr: string): boolean {
  return /^bench \w+: [1-9]\d*\/\d+ runs/m.test(stderr);
}
