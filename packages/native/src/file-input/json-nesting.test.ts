import { describe, expect, it } from 'vitest';
import { jsonNestingBeyond } from './json-nesting.js';

describe('jsonNestingBeyond', () => {
  it('finds the bracket that opens one level too many, ignoring brackets in strings', () => {
    expect(jsonNestingBeyond('{"a":[{"b":[1]}]}', 4)).toBeNull();
    expect(jsonNestingBeyond('{"a":[{"b":[1]}]}', 3)).toBe(11);
    expect(jsonNestingBeyond('["[[[[", "\\"[[["]', 1)).toBeNull();
    expect(jsonNestingBeyond('[][][]', 1)).toBeNull();
    expect(jsonNestingBeyond('1', 0)).toBeNull();
  });

  it('scans text nested a million deep without recursion', () => {
    expect(jsonNestingBeyond(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, 8)).toBe(8);
  });
});
