/**
 * The driver conformance kit of `@kreplay/native`: `testDriver({...})` registers vitest suites that
 * check a runtime against the contract in API.md. It owns setup and teardown (it opens and
 * disposes the runtimes it needs) and skips the tests of capabilities the options say are absent.
 *
 * ```ts
 * import { openRuntime } from '@kreplay/native';
 * import { testDriver } from '@kreplay/native/test';
 *
 * testDriver({ name: 'host', open: () => openRuntime({ driver: 'host', host: { agents: 2 } }),
 *   capabilities: { multipleAgents: true } });
 * ```
 */
import { describe } from 'vitest';
import { describeBadInput } from './test/bad-input.js';
import { describeConditionalCopies } from './test/conditional-copies.js';
import { describeCopyPlans } from './test/copy-plans.js';
import { describeDispose } from './test/dispose.js';
import { describeEventsAndTiming } from './test/events-and-timing.js';
import { describeFaults } from './test/faults.js';
import { describeHashing } from './test/hashing.js';
import { describeKernels } from './test/kernels.js';
import { describeMemoryEvents } from './test/memory-events.js';
import { describeMultiAgent } from './test/multi-agent.js';
import { type DriverTestOptions, resolveDriverTestOptions } from './test/options.js';
import { describeQueueConcurrency } from './test/queue-concurrency.js';
import { describeRuntimeAndAgents } from './test/runtime-and-agents.js';

export type { DriverTestCapabilities, DriverTestOptions, DriverTestSizes } from './test/options.js';
export { writeTestCapture } from './test/capture-folder-writer.js';
export { unavailableDriverReason } from './test/driver-availability.js';
export { captureFixtureAxpyParameters, captureFixtureBlockSums, captureFixtureBlockSumsParameters, captureFixtureBlockThreads } from './test/capture-fixture.js';
export type { TestCapture, TestCaptureLaunch, TestCaptureRange } from './test/capture-folder-writer.js';

/**
 * Registers the conformance suite of one driver (call it at the top level of a test file).
 * Each group of tests opens its own runtime with `options.open` and disposes it afterwards.
 * @throws RangeError when `options.sizes` are not usable.
 */
export function testDriver(options: DriverTestOptions): void {
  const resolved = resolveDriverTestOptions(options);
  describe(`@kreplay/native driver conformance: ${resolved.name}`, () => {
    describeRuntimeAndAgents(resolved);
    describeMemoryEvents(resolved);
    describeCopyPlans(resolved);
    describeQueueConcurrency(resolved);
    describeHashing(resolved);
    describeConditionalCopies(resolved);
    describeKernels(resolved);
    describeEventsAndTiming(resolved);
    describeFaults(resolved);
    describeMultiAgent(resolved);
    describeBadInput(resolved);
    describeDispose(resolved);
  });
}
