import { describe, expect, it } from 'vitest';
import { AddressRangeMap } from './address-range-map.js';
import { ArgumentError } from '../errors/argument-error.js';

describe('AddressRangeMap', () => {
  it('finds interior addresses and nothing outside the ranges', () => {
    const map = new AddressRangeMap<string>();
    map.insert(100, 10, 'b');
    map.insert(0, 50, 'a');
    map.insert(200, 1, 'c');
    expect(map.size).toBe(3);
    expect(map.find(0)).toBe('a');
    expect(map.find(49)).toBe('a');
    expect(map.find(50)).toBeUndefined();
    expect(map.find(99)).toBeUndefined();
    expect(map.find(100)).toBe('b');
    expect(map.find(109)).toBe('b');
    expect(map.find(110)).toBeUndefined();
    expect(map.find(200)).toBe('c');
    expect(map.find(201)).toBeUndefined();
    expect([...map.values()]).toEqual(['a', 'b', 'c']);
    expect([...map.entries()].map(({ address, bytes }) => [address, bytes])).toEqual([[0, 50], [100, 10], [200, 1]]);
  });

  it('refuses overlaps and bad ranges with ArgumentError', () => {
    const map = new AddressRangeMap<number>();
    map.insert(100, 100, 1);
    expect(() => map.insert(150, 10, 2)).toThrow(ArgumentError);
    expect(() => map.insert(50, 51, 2)).toThrow(ArgumentError);
    expect(() => map.insert(199, 5, 2)).toThrow(/overlaps/);
    expect(() => map.insert(0, 0, 2)).toThrow(ArgumentError);
    expect(() => map.insert(-1, 4, 2)).toThrow(ArgumentError);
    expect(() => map.insert(1.5, 4, 2)).toThrow(ArgumentError);
    map.insert(50, 50, 3);
    map.insert(200, 50, 4);
    expect(map.size).toBe(3);
  });

  it('removes only by exact start address', () => {
    const map = new AddressRangeMap<string>();
    map.insert(0, 10, 'a');
    map.insert(10, 10, 'b');
    expect(map.remove(5)).toBeUndefined();
    expect(map.remove(10)).toBe('b');
    expect(map.find(15)).toBeUndefined();
    expect(map.find(5)).toBe('a');
    expect(map.size).toBe(1);
    map.clear();
    expect(map.size).toBe(0);
  });

  it('agrees with a linear scan over many random operations', () => {
    const map = new AddressRangeMap<number>();
    const live = new Map<number, number>();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let step = 0; step < 3000; step += 1) {
      const address = next() % 10_000;
      if (next() % 3 === 0 && live.size > 0) {
        const start = [...live.keys()][next() % live.size]!;
        expect(map.remove(start)).toBe(start);
        live.delete(start);
        continue;
      }
      const bytes = 1 + (next() % 50);
      const overlaps = [...live].some(([start, length]) => start < address + bytes && address < start + length);
      if (overlaps) expect(() => map.insert(address, bytes, address)).toThrow(ArgumentError);
      else {
        map.insert(address, bytes, address);
        live.set(address, bytes);
      }
      const probe = next() % 10_100;
      const holder = [...live].find(([start, length]) => start <= probe && probe < start + length);
      expect(map.find(probe)).toBe(holder?.[0]);
    }
    expect(map.size).toBe(live.size);
  });
});
