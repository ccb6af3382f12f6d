import { describe, expect, it } from 'vitest';
import { Footprint } from './footprint.js';

describe('Footprint', () => {
  it('keeps live bytes and their high-water per agent', () => {
    const footprint = new Footprint();
    footprint.add(0, 10);
    footprint.add(0, 5);
    footprint.subtract(0, 10);
    footprint.add(1, 3);
    expect([footprint.bytes(0), footprint.highWaterBytes(0)]).toEqual([5, 15]);
    expect([footprint.bytes(1), footprint.highWaterBytes(1)]).toEqual([3, 3]);
    expect([footprint.bytes(2), footprint.highWaterBytes(2)]).toEqual([0, 0]);
  });
});
