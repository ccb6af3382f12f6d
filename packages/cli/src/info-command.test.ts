import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { infoResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

const binPath = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

describe('kreplay info', () => {
  it('prints one JSON document of its schema listing the host agents', async () => {
    const io = recordingIo();
    const code = await runCli(['info', '--driver', 'host', '--agents', '3', '--json'], io);
    expect(code).toBe(0);
    const report = JSON.parse(io.out()) as { agents: Array<Record<string, unknown>> };
    expect(report).toMatchObject({ schema: 'urn:kreplay:schema:info-result:1', schemaVersion: 1, driver: 'host' });
    expect(jsonSchemaProblem(infoResultJsonSchema, report)).toBeNull();
    expect(report.agents).toHaveLength(3);
    for (const [index, agent] of report.agents.entries()) {
      expect(agent).toMatchObject({ id: index, driver: 'host' });
      expect(typeof agent.name).toBe('string');
      expect(agent.deviceMemoryBytes).toBeGreaterThan(0);
    }
  });

  it('prints a readable table without --json', async () => {
    const io = recordingIo();
    expect(await runCli(['info', '--driver', 'host'], io)).toBe(0);
    expect(io.out()).toMatch(/agent 0: .+ \[.+\]/);
  });

  it('refuses an unknown driver with a one-line reason and exit code 2', async () => {
    const io = recordingIo();
    expect(await runCli(['info', '--driver', 'opencl'], io)).toBe(2);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.err()).toContain('unknown driver "opencl"');
  });

  it('names the cause when a driver is not available here', async () => {
    const io = recordingIo();
    expect(await runCli(['info', '--driver', 'hsa'], io)).toBe(1);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.err()).toMatch(/hsa/);
  });

  it('runs as a binary: --version and --help', async () => {
    const run = promisify(execFile);
    const version = await run(process.execPath, [binPath, '--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = await run(process.execPath, [binPath, '--help']);
    expect(help.stdout).toContain('info');
  });
});
