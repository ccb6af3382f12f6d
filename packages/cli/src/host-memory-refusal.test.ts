import { totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

describe('kreplay on the host driver with more device memory than the machine holds', () => {
  it('refuses before measuring, in one line naming the figures and the fix, as a usage error (exit 2)', async () => {
    const GiB = 2 ** 30;
    const tooMuch = `${Math.ceil(totalmem() / GiB) + 1}GiB`;
    const io = recordingIo();
    const code = await runCli(['replay', '--driver', 'host', '--device-memory', tooMuch, '--footprint', '1MiB', '--dispatches', '1'], io);
    expect(code).toBe(2);
    expect(io.out()).toBe('');
    const lines = io.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^kreplay: \[native\] \[runtime\] .*1 agent x \d+ GiB = \d+ GiB requested, [\d.]+ GiB of physical memory, [\d.]+ GiB kept in reserve/);
    expect(lines[0]).toMatch(/--device-memory.*--agents/);
    const agents = recordingIo();
    const perAgent = `${Math.ceil(totalmem() / GiB / 2)}GiB`;
    expect(await runCli(['replay', '--driver', 'host', '--agents', '2', '--device-memory', perAgent, '--footprint', '1MiB', '--dispatches', '1'], agents)).toBe(2);
    expect(agents.err()).toMatch(/2 agents x \d+ GiB/);
  });
});
