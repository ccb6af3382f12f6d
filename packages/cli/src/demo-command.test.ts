import { describe, expect, it } from 'vitest';
import { demoResultJsonSchema, jsonSchemaProblem } from '@kreplay/bench';
import { runCli } from './run-cli.js';
import { recordingIo } from './test-io.js';

describe('kreplay demo', () => {
  it('prints one replay per strategy and the copy plans in GiB/s, or all of it as one JSON object with --json', async () => {
    const text = recordingIo();
    expect(await runCli(['demo', '--driver', 'host'], text)).toBe(0);
    expect(text.out()).toMatch(/^driver host: /);
    expect(text.out()).toMatch(/copy plan of 4096 segment\(s\): [\d.]+ GiB\/s\n$/);
    const json = recordingIo();
    expect(await runCli(['demo', '--driver', 'host', '--json'], json)).toBe(0);
    const demo = JSON.parse(json.out()) as { driver: string; replays: { strategy: string }[]; calls: { copyPlans: unknown[] } };
    expect(demo).toMatchObject({ schema: 'urn:kreplay:schema:demo-result:1', schemaVersion: 1, driver: 'host' });
    expect(jsonSchemaProblem(demoResultJsonSchema, demo)).toBeNull();
    expect(demo.replays.map((replay) => replay.strategy)).toEqual(['full', 'write-set', 'dirty-pages']);
    expect(demo.calls.copyPlans).toHaveLength(2);
  });
});
