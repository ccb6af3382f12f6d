import { describe, expect, it } from 'vitest';
import { jsonPointerAsPath, shortJson } from './json-field-path.js';

describe('JSON field paths for messages', () => {
  it('turns a JSON Pointer into a dotted path with indexes, unescaping ~1 and ~0', () => {
    expect(jsonPointerAsPath('/rows/0/summary')).toBe('rows[0].summary');
    expect(jsonPointerAsPath('/shape/grid/2')).toBe('shape.grid[2]');
    expect(jsonPointerAsPath('/a~1b/c~0d')).toBe('a/b.c~d');
    expect(jsonPointerAsPath('')).toBe('');
  });

  it('shows a value as JSON, cut at the limit', () => {
    expect(shortJson('x')).toBe('"x"');
    expect(shortJson(undefined)).toBe('undefined');
    expect(shortJson('a'.repeat(60), 10)).toBe(`"${'a'.repeat(9)}...`);
  });
});
