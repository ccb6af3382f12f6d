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

  it("holds host staging within what the machine holds beside the arenas: a snapshot beyond it is declined, never staged", async () => {
    const GiB = 2 ** 30;
    // The arena check's figures (native's host-memory-limit): physical memory less max(1 GiB, 10%).
    const available = totalmem() - Math.max(GiB, Math.ceil(totalmem() * 0.1));
    // Device memory that passes the check and leaves 512 KiB beside it; arenas are backed only as
    // they fill, so a 1 MiB footprint costs 1 MiB.
    const deviceMemory = Math.floor((available - 512 * 1024) / 4096) * 4096;
    const io = recordingIo();
    const code = await runCli(['replay', '--driver', 'host', '--device-memory', String(deviceMemory), '--footprint', '1MiB', '--dispatches', '1', '--passes', '2', '--strategy', 'full', '--tier', 'host-pinned', '--json'], io);
    expect(code, io.err()).toBe(0);
    const result = JSON.parse(io.out()) as { hostBytesLimit: number | null; hostHighWaterBytes: number; replayedDispatches: number; declined: string[] };
    expect(result.hostBytesLimit).toBe(available - deviceMemory);
    expect(result.hostHighWaterBytes).toBe(0);
    expect(result.replayedDispatches).toBe(0);
    expect(result.declined[0]).toMatch(/over the host limit of \d+ \(by default what this machine holds: .* less .* kept in reserve and .* of the host driver's device memory\)/);
    // With the default device memory, the same replay has room.
    const fits = recordingIo();
    expect(await runCli(['replay', '--driver', 'host', '--footprint', '1MiB', '--dispatches', '1', '--passes', '2', '--strategy', 'full', '--tier', 'host-pinned', '--json'], fits)).toBe(0);
    expect(JSON.parse(fits.out())).toMatchObject({ hostBytesLimit: available - GiB, replayedDispatches: 1 });
  });
});
