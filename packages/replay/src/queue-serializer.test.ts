import { describe, expect, it } from 'vitest';
import { QueueSerializer } from './queue-serializer.js';

describe('QueueSerializer', () => {
  it('starts a task at once on an idle queue, and again right after the last one settled', async () => {
    const serializer = new QueueSerializer();
    let started = 0;
    const first = serializer.run(1, async () => void (started += 1));
    expect(started).toBe(1); // in the caller's turn
    await first;
    void serializer.run(1, async () => void (started += 1));
    expect(started).toBe(2); // the queue reads idle in the continuation of the await
  });

  it("runs a queue's tasks one after another, after failures too, and other queues alongside", async () => {
    const serializer = new QueueSerializer();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = serializer.run(1, async () => {
      order.push('first starts');
      await gate;
      order.push('first ends');
      throw new Error('first fails');
    });
    const second = serializer.run(1, async () => void order.push('second'));
    const other = serializer.run(2, async () => void order.push('other queue'));
    await other;
    expect(order).toEqual(['first starts', 'other queue']);
    release();
    await expect(first).rejects.toThrow('first fails');
    await second;
    expect(order).toEqual(['first starts', 'other queue', 'first ends', 'second']);
  });

  it('turns a task that throws at once into a rejection', async () => {
    const serializer = new QueueSerializer();
    const thrown = serializer.run(3, () => {
      throw new Error('at once');
    });
    await expect(thrown).rejects.toThrow('at once');
    expect(await serializer.run(3, async () => 'next')).toBe('next');
  });
});
