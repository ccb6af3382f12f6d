import { describe, expect, it } from 'vitest';
import { OutOfMemoryError } from '../index.js';
import { expectThrows } from './expect-errors.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** The runtime's and agents' descriptive fields, and queue identity. */
export function describeRuntimeAndAgents(options: ResolvedDriverTestOptions): void {
  describe('runtime and agents', () => {
    const suite = useSuiteRuntime(options);

    it('names its driver and versions', () => {
      const { runtime } = suite;
      expect(['host', 'cuda', 'hsa']).toContain(runtime.driver);
      expect(typeof runtime.versions.addon).toBe('string');
      expect(runtime.versions.addon.length).toBeGreaterThan(0);
      expect(typeof runtime.versions.driver).toBe('string');
    });

    it('numbers its agents from 0 and describes each', () => {
      const { runtime } = suite;
      expect(runtime.agents.length).toBeGreaterThanOrEqual(1);
      runtime.agents.forEach((agent, index) => {
        expect(agent.id).toBe(index);
        expect(agent.info.id).toBe(index);
        expect(agent.info.driver).toBe(runtime.driver);
        expect(agent.runtime).toBe(runtime);
        expect(agent.info.name.length).toBeGreaterThan(0);
        expect(agent.info.architecture.length).toBeGreaterThan(0);
        expect(Number.isSafeInteger(agent.info.deviceMemoryBytes)).toBe(true);
        expect(agent.info.deviceMemoryBytes).toBeGreaterThan(0);
      });
    });

    it('gives queues ids unique within the runtime and ties them to their agent', () => {
      const ids = new Set<number>();
      for (const agent of suite.runtime.agents) {
        for (let count = 0; count < 3; count += 1) {
          const queue = suite.createQueue(agent);
          expect(queue.agent).toBe(agent);
          expect(ids.has(queue.id)).toBe(false);
          ids.add(queue.id);
        }
      }
    });

    it('describes the five built-in kernels with their declared parameters', () => {
      const { kernels } = suite.runtime;
      const shape = (name: keyof typeof kernels) =>
        kernels[name].parameters.map((parameter) =>
          parameter.type === 'pointer' ? `${parameter.name}:pointer:${parameter.access ?? 'unknown'}` : `${parameter.name}:${parameter.type}`,
        );
      expect(shape('fill')).toEqual(['destination:pointer:write', 'bytes:u64', 'value:u32']);
      expect(shape('scatterWrite')).toEqual([
        'buffer:pointer:readwrite',
        'bytes:u64',
        'pageBytes:u64',
        'fraction:f64',
        'seed:u64',
        'source:pointer:read',
        'sourceBytes:u64',
      ]);
      expect(shape('triad')).toEqual(['a:pointer:write', 'b:pointer:read', 'c:pointer:read', 'scalar:f32', 'count:u64']);
      expect(shape('stencil')).toEqual(['buffer:pointer:readwrite', 'count:u64']);
      expect(shape('accumulate')).toEqual(['input:pointer:read', 'count:u64', 'output:pointer:write']);
      expect(kernels.fill.name.length).toBeGreaterThan(0);
      for (const name of ['fill', 'scatterWrite', 'triad', 'stencil'] as const) expect(kernels[name].deterministic, name).toBe(true);
      expect(kernels.accumulate.deterministic).toBe(false);
    });

    it('finds the live allocation holding an interior address, and forgets it once freed', () => {
      const { agent } = suite;
      const allocation = suite.allocate(options.sizes.smallBytes);
      expect(allocation.kind).toBe('device');
      expect(allocation.agentId).toBe(agent.id);
      expect(allocation.bytes).toBe(options.sizes.smallBytes);
      expect(allocation.freed).toBe(false);
      expect(agent.findAllocation(allocation.address)).toBe(allocation);
      expect(agent.findAllocation(allocation.address + allocation.bytes - 1)).toBe(allocation);
      expect(agent.findAllocation(allocation.address + allocation.bytes)).not.toBe(allocation);
      allocation.free();
      expect(allocation.freed).toBe(true);
      expect(agent.findAllocation(allocation.address)).toBeUndefined();
    });

    it('gives live allocations of one agent disjoint ranges', () => {
      const sizes = [1, 7, 4096, 100, options.sizes.smallBytes, 3];
      const allocations = sizes.map((bytes) => suite.allocate(bytes));
      const sorted = [...allocations].sort((left, right) => left.address - right.address);
      for (let index = 1; index < sorted.length; index += 1) {
        const previous = sorted[index - 1]!;
        expect(sorted[index]!.address).toBeGreaterThanOrEqual(previous.address + previous.bytes);
      }
    });

    it('refuses an allocation larger than the device memory with OutOfMemoryError', () => {
      const { agent } = suite;
      const bytes = agent.info.deviceMemoryBytes * 2;
      const error = expectThrows(() => suite.allocate(bytes), OutOfMemoryError, 'allocate(2 x device memory)');
      expect(error.agentId).toBe(agent.id);
      expect(error.bytes).toBe(bytes);
      expect(typeof error.availableBytes).toBe('number');
      expect(error.availableBytes).toBeLessThan(bytes);
    });
  });
}
