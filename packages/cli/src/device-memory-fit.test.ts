import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

// A workload larger than the host driver's device memory is the user's to fix with --device-memory:
// a usage error before anything is allocated, never the allocator's "no free block".
describe('a workload that does not fit the device memory', () => {
  it('is a usage error (exit 2) naming the device memory, --device-memory and what to pass', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['replay', '--driver', 'host', '--footprint', '20GiB', '--dispatches', '1'],
        /^kreplay: \[cli\] \[replay\] --footprint 20 GiB does not fit the device memory: the host driver gives agent 0 1 GiB \(--device-memory, 1 GiB unless given\), 1(\.0)? GiB of it free\. Pass --device-memory 20GiB or more \(the host driver's device memory is this machine's memory: agents x --device-memory must fit it\), or a smaller --footprint\.\n$/,
      ],
      [
        ['replay', '--driver', 'host', '--agents', '2', '--all-agents', '--device-memory', '64MiB', '--footprint', '100MiB', '--dispatches', '1'],
        /^kreplay: \[cli\] \[replay\] --footprint 100 MiB does not fit the device memory: the host driver gives agent 0 64 MiB \(--device-memory\), .* free\. Pass --device-memory 100MiB or more/,
      ],
      [['calibrate', '--driver', 'host', '--plan-bytes', '8GiB'], /^kreplay: \[cli\] \[calibrate\] --plan-bytes 8 GiB \(a source and a destination of it, 16 GiB\) does not fit the device memory: the host driver gives agent 0 1 GiB .*Pass --device-memory 16GiB or more .*, or a smaller --plan-bytes\.\n$/],
      [['overhead', '--driver', 'host', '--footprint', '10GiB', '--dispatches', '1'], /^kreplay: \[cli\] \[overhead\] --footprint 10 GiB does not fit the device memory: .*Pass --device-memory 10GiB or more .*, or a smaller --footprint\.\n$/],
    ];
    for (const [args, message] of cases) {
      const io = recordingIo();
      expect(await runCli(args, io), `${args.join(' ')}: ${io.err()}`).toBe(2);
      expect(io.err(), args.join(' ')).toMatch(message);
      expect(io.err()).not.toMatch(/deviceMemoryBytes|no free block/);
      expect(io.out()).toBe('');
    }
  });

  it('lets a workload that fills the device memory exactly run', async () => {
    const io = recordingIo();
    expect(await runCli(['replay', '--driver', 'host', '--device-memory', '64MiB', '--footprint', '64MiB', '--dispatches', '1', '--passes', '2'], io), io.err()).toBe(0);
  }, 60_000);
});
