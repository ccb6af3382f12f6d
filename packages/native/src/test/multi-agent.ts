import { describe, expect, it } from 'vitest';
import { ArgumentError } from '../index.js';
import { expectThrows } from './expect-errors.js';
import { expectSameBytes } from './memory-access.js';
import type { ResolvedDriverTestOptions } from './options.js';
import { randomBytes } from './random-data.js';
import { fillReference } from './reference-kernels.js';
import { useSuiteRuntime } from './suite-runtime.js';

/** Several agents: disjoint addresses, and a queue never touches another agent's device memory. */
export function describeMultiAgent(options: ResolvedDriverTestOptions): void {
  describe.skipIf(!options.capabilities.multipleAgents)('multiple agents', () => {
    const suite = useSuiteRuntime(options);
    const { smallBytes } = options.sizes;

    function twoAgents() {
      const [first, second] = suite.runtime.agents;
      if (!first || !second) throw new Error('[native] [test-kit] multipleAgents is set but the runtime has fewer than two agents.');
      return [first, second] as const;
    }

    it('gives the agents allocations whose ranges never overlap', () => {
      const agents = suite.runtime.agents;
      expect(agents.length).toBeGreaterThanOrEqual(2);
      const ranges = agents.flatMap((agent) => [1, smallBytes, 5000, 64].map((bytes) => suite.allocate(bytes, agent)));
      const sorted = [...ranges].sort((left, right) => left.address - right.address);
      for (let index = 1; index < sorted.length; index += 1) {
        const previous = sorted[index - 1]!;
        expect(sorted[index]!.address, 'allocations overlap').toBeGreaterThanOrEqual(previous.address + previous.bytes);
      }
      for (const allocation of ranges) {
        for (const agent of agents) {
          const found = agent.findAllocation(allocation.address);
          if (agent.id === allocation.agentId) expect(found).toBe(allocation);
          else expect(found).toBeUndefined();
        }
      }
    });

    it("refuses work on a queue that touches another agent's device memory", async () => {
      const [first, second] = twoAgents();
      const own = await suite.allocateWith(randomBytes(smallBytes, 271), first);
      const foreign = await suite.allocateWith(randomBytes(smallBytes, 272), second);
      const queue = suite.createQueue(first);
      const { kernels } = suite.runtime;
      expectThrows(() => queue.enqueueCopy([{ source: own.address, destination: foreign.address, bytes: 64 }]), ArgumentError, 'copy into another agent');
      expectThrows(() => queue.enqueueCopy([{ source: foreign.address, destination: own.address, bytes: 64 }]), ArgumentError, 'copy from another agent');
      expectThrows(() => queue.enqueueHashPages([{ address: foreign.address, bytes: 64 }], 64, own.address), ArgumentError, 'hash of another agent');
      expectThrows(() => queue.enqueueKernel(kernels.fill, { destination: foreign.address, bytes: 64, value: 0 }), ArgumentError, 'kernel on another agent');
      await queue.synchronize();
      expectSameBytes(await second.read(foreign.address, smallBytes), randomBytes(smallBytes, 272), 'the other agent’s memory');
    });

    it('runs work on every agent independently', async () => {
      const agents = suite.runtime.agents;
      const buffers = agents.map((agent) => suite.allocate(smallBytes, agent));
      const queues = agents.map((agent) => suite.createQueue(agent));
      queues.forEach((queue, index) =>
        queue.enqueueKernel(suite.runtime.kernels.fill, { destination: buffers[index]!.address, bytes: smallBytes, value: 0x100 + index }),
      );
      await Promise.all(agents.map((agent) => agent.synchronize()));
      for (const [index, agent] of agents.entries()) {
        expectSameBytes(await agent.read(buffers[index]!.address, smallBytes), fillReference(smallBytes, 0x100 + index), `agent ${index}`);
      }
    });

    it('copies through a host buffer between two agents', async () => {
      const [first, second] = twoAgents();
      const data = randomBytes(smallBytes, 281);
      const source = await suite.allocateWith(data, first);
      const destination = suite.allocate(smallBytes, second);
      const staging = suite.allocateHost(smallBytes, true);
      const download = suite.createQueue(first);
      const upload = suite.createQueue(second);
      download.enqueueCopy([{ source: source.address, destination: staging.address, bytes: smallBytes }]);
      await download.synchronize();
      upload.enqueueCopy([{ source: staging.address, destination: destination.address, bytes: smallBytes }]);
      await upload.synchronize();
      expectSameBytes(await second.read(destination.address, smallBytes), data, 'the second agent’s copy');
    });
  });
}
