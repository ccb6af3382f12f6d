import type { KernelArguments, KernelDescriptor, MemoryEvent } from '@kreplay/native';
import type { AllocationChange, AllocationChangeListener } from './allocation-change.js';
import type { AllocationTag } from './allocation-tag.js';
import { resolveKernelArguments, type ArgumentResolution } from './argument-resolution.js';
import { ResolutionMemo } from './resolution-memo.js';
import { ChangeListeners } from './change-listeners.js';
import { describeValue, formatAddress, trackerArgumentError, trackerDisposedError } from './errors.js';
import { Inventory } from './inventory.js';
import type { AllocationRecord, TrackedAllocation } from './tracked-allocation.js';
import { resolveTrackerOptions, type TrackerOptions } from './tracker-options.js';
import type { TrackerStats } from './tracker-stats.js';
import { requireAddress, requireAgentId, requireTag } from './validate.js';

/**
 * What the tracker needs from a runtime: its memory events, and (optionally) its agents, so that
 * agents with no allocation yet are known. A `Runtime` of `@kreplay/native` is one.
 */
export interface MemoryEventSource {
  onMemoryEvent(listener: (event: MemoryEvent) => void): () => void;
  readonly agents?: readonly { readonly id: number }[];
}

/**
 * The live inventory of a runtime's allocations, per agent, kept up to date from its memory events.
 * Every method throws `DisposedError` once the tracker is disposed (except `dispose`).
 */
export interface Tracker extends Disposable {
  /**
   * The agent's device and stream-ordered allocations, by address (a frozen array, the same one
   * until the agent's allocations change). Tagged allocations are included.
   * @throws {ArgumentError} when the agent is unknown.
   * @throws {DisposedError} after `dispose`.
   */
  allocations(agentId: number): readonly TrackedAllocation[];
  /**
   * The host buffers (pinned and pageable), by address; empty when `trackHostBuffers` is false.
   * @throws {DisposedError} after `dispose`.
   */
  hostAllocations(): readonly TrackedAllocation[];
  /**
   * The live allocation holding `address` (any interior pointer), on any agent or the host.
   * O(agents x log allocations).
   * @throws {ArgumentError} when `address` is not a non-negative integer.
   * @throws {DisposedError} after `dispose`.
   */
  find(address: number): TrackedAllocation | undefined;
  /**
   * Tags the live allocation holding `address` (any interior pointer). Tags last as long as the
   * allocation: memory allocated again at the same address starts untagged. Tagging twice is a no-op.
   * @throws {ArgumentError} when the tag is not a tag, or no tracked allocation holds `address`.
   * @throws {DisposedError} after `dispose`.
   */
  tag(address: number, tag: AllocationTag): void;
  /**
   * Removes a tag from the live allocation holding `address`; a no-op when it does not carry it.
   * @throws {ArgumentError} when the tag is not a tag, or no tracked allocation holds `address`.
   * @throws {DisposedError} after `dispose`.
   */
  untag(address: number, tag: AllocationTag): void;
  /**
   * Live device and stream-ordered bytes of the agent, minus `excluded` allocations.
   * @throws {ArgumentError} when the agent is unknown.
   * @throws {DisposedError} after `dispose`.
   */
  footprintBytes(agentId: number): number;
  /**
   * The largest footprint the agent has had since the tracker was created.
   * @throws {ArgumentError} when the agent is unknown.
   * @throws {DisposedError} after `dispose`.
   */
  highWaterBytes(agentId: number): number;
  /**
   * The allocations a dispatch on the agent can reach through its pointer arguments, with their
   * access and ranges; see {@link ArgumentResolution}.
   * @throws {ArgumentError} when the agent is unknown, the kernel is not a descriptor, a pointer
   * argument is missing or not an address, or an extent argument is missing or not a count.
   * @throws {DisposedError} after `dispose`.
   */
  resolveArguments(agentId: number, kernel: KernelDescriptor, args: KernelArguments): ArgumentResolution;
  /**
   * Calls `listener` after each allocation enters or leaves the inventory (the inventory already
   * reflects it). Returns a function that unsubscribes (idempotent).
   * @throws {ArgumentError} when `listener` is not a function.
   * @throws {DisposedError} after `dispose`.
   */
  onChange(listener: AllocationChangeListener): () => void;
  /**
   * Counters of what the tracker saw (unknown frees, ignored events, listener errors, ...).
   * @throws {DisposedError} after `dispose`.
   */
  stats(): TrackerStats;
  /** Stops listening to the runtime and drops every listener. Idempotent; never throws. */
  dispose(): void;
}

/**
 * Creates a tracker of `runtime`'s allocations. It sees only what is allocated after it is created,
 * so create it right after `openRuntime` (a free of earlier memory is counted in `stats().unknownFrees`).
 * @throws {ArgumentError} when `runtime` has no `onMemoryEvent`, or an option is unknown or invalid.
 */
export function createTracker(runtime: MemoryEventSource, options?: TrackerOptions): Tracker {
  if (typeof runtime !== 'object' || runtime === null || typeof runtime.onMemoryEvent !== 'function') {
    throw trackerArgumentError(
      'tracker',
      'runtime',
      `runtime is ${describeValue(runtime)}, which has no onMemoryEvent method`,
      'Pass the Runtime that openRuntime() returned',
    );
  }
  const { trackHostBuffers, onListenerError } = resolveTrackerOptions(options);
  const agentIds = Array.isArray(runtime.agents) ? runtime.agents.map((agent) => agent.id) : [];
  const inventory = new Inventory(agentIds, trackHostBuffers);
  const listeners = new ChangeListeners(inventory.stats, onListenerError);
  const resolutions = new ResolutionMemo();
  let unsubscribe: (() => void) | undefined = runtime.onMemoryEvent((event) => {
    let changes: AllocationChange[];
    try {
      changes = inventory.apply(event);
    } catch {
      inventory.stats.malformedEvents += 1;
      return;
    }
    for (const change of changes) listeners.emit(change);
  });

  const live = (method: string): void => {
    if (unsubscribe === undefined) throw trackerDisposedError(method);
  };
  const agentMap = (method: string, agentId: number) => {
    live(method);
    const id = requireAgentId('tracker', agentId);
    const map = inventory.agent(id);
    if (map === undefined) {
      const known = inventory.agentIds();
      throw trackerArgumentError(
        'tracker',
        'agentId',
        `agent ${id} is unknown to this tracker`,
        known.length === 0
          ? 'No agent is known yet: pass a runtime with agents, or allocate on the agent first'
          : `Pass the id of one of the runtime's agents (${known.join(', ')})`,
      );
    }
    return { id, map };
  };
  const recordAt = (method: string, address: number, tag: AllocationTag): AllocationRecord => {
    live(method);
    const checkedTag = requireTag(tag);
    const checked = requireAddress('tags', 'address', address);
    const record = inventory.findAnywhere(checked);
    if (record === undefined) {
      throw trackerArgumentError(
        'tags',
        'address',
        `cannot ${method} ${formatAddress(checked)} '${checkedTag}': no tracked allocation holds that address`,
        'Tag a live allocation made after the tracker was created (pass its address or any address inside it)',
      );
    }
    return record;
  };

  const tracker: Tracker = {
    allocations: (agentId) => agentMap('allocations', agentId).map.list(),
    hostAllocations: () => {
      live('hostAllocations');
      return inventory.host.list();
    },
    find: (address) => {
      live('find');
      return inventory.findAnywhere(requireAddress('lookup', 'address', address))?.allocation;
    },
    tag: (address, tag) => inventory.setTag(recordAt('tag', address, tag), tag, true),
    untag: (address, tag) => inventory.setTag(recordAt('untag', address, tag), tag, false),
    footprintBytes: (agentId) => inventory.footprint.bytes(agentMap('footprintBytes', agentId).id),
    highWaterBytes: (agentId) =>
      inventory.footprint.highWaterBytes(agentMap('highWaterBytes', agentId).id),
    resolveArguments: (agentId, kernel, args) => {
      const { id } = agentMap('resolveArguments', agentId);
      const remembered = resolutions.find(id, inventory.version, kernel, args);
      if (remembered !== undefined) return remembered;
      const resolution = resolveKernelArguments(inventory, id, kernel, args);
      resolutions.remember(id, inventory.version, kernel, args, resolution);
      return resolution;
    },
    onChange: (listener) => {
      live('onChange');
      return listeners.add(listener);
    },
    stats: () => {
      live('stats');
      return Object.freeze({ ...inventory.stats });
    },
    dispose: () => {
      const stop = unsubscribe;
      unsubscribe = undefined;
      listeners.clear();
      stop?.();
    },
    [Symbol.dispose]: () => tracker.dispose(),
  };
  return Object.freeze(tracker);
}
