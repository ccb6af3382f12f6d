import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { conditionFlags, conditionsFromFlags, describeConditions } from './profile-condition-flags.js';

function parse(args: readonly string[]) {
  const command = new Command('profile').exitOverride();
  for (const option of Object.values(conditionFlags())) command.addOption(option);
  command.parse(['node', 'profile', ...args]);
  return command.opts();
}

describe('profile condition flags', () => {
  it('take the L2 flush and the instruction caches, write-discard and evict unless given', () => {
    expect(conditionsFromFlags(parse([]) as never)).toEqual({ l2Flush: 'write-discard', instructionCache: 'evict' });
    expect(conditionsFromFlags(parse(['--l2-flush', 'read', '--instruction-cache', 'keep']) as never)).toEqual({ l2Flush: 'read', instructionCache: 'keep' });
    expect(() => parse(['--l2-flush', 'evict-last'])).toThrow(/Allowed choices are write-discard, read, none/);
  });

  it('carry cache control, warm runs and samples only where the user gave them, so the workload keeps its defaults', () => {
    expect(conditionsFromFlags({ l2Flush: 'none', instructionCache: 'evict', cacheControl: 'none', warmRuns: 0, samples: 5 })).toEqual({
      l2Flush: 'none',
      instructionCache: 'evict',
      cacheControl: 'none',
      warmRuns: 0,
      samples: 5,
    });
    expect(conditionsFromFlags({ l2Flush: 'write-discard', instructionCache: 'evict' })).not.toHaveProperty('warmRuns');
  });

  it('says in words what a report was measured under', () => {
    expect(describeConditions({ l2Flush: 'write-discard', instructionCache: 'evict', cacheControl: 'all', warmRuns: 0, samples: 1 })).toBe('L2 write-discard flush, instruction caches evicted');
    expect(describeConditions({ l2Flush: 'read', instructionCache: 'keep', cacheControl: 'all', warmRuns: 0, samples: 1 })).toBe('L2 read flush, instruction caches kept');
    expect(describeConditions({ l2Flush: 'none', instructionCache: 'keep', cacheControl: 'all', warmRuns: 0, samples: 1 })).toBe('no L2 flush, instruction caches kept');
  });
});
