import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

describe('the runtime options every command shares', () => {
  it('refuses the host driver options with --driver cuda or hsa, which would ignore them, before opening it', async () => {
    for (const [command, driver, option] of [
      ['info', 'cuda', ['--agents', '2']],
      ['calibrate', 'hsa', ['--device-memory', '1GiB']],
      ['overhead', 'cuda', ['--agents', '2']],
    ] as const) {
      const io = recordingIo();
      expect(await runCli([command, '--driver', driver, ...option], io), `${command} ${option.join(' ')}`).toBe(2);
      expect(io.err()).toBe(`kreplay: [cli] [${command}] ${option[0]} only applies with the host driver, not --driver ${driver}. Leave out ${option[0]}, or pass --driver host.\n`);
    }
  });

  it('takes them with the host driver', async () => {
    const io = recordingIo();
    expect(await runCli(['info', '--driver', 'host', '--agents', '2', '--device-memory', '64MiB', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out()) as { agents: unknown[] }).agents).toHaveLength(2);
  });
});
