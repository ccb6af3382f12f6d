import type { Access, KernelArguments, KernelDescriptor, KernelParameter, MemoryKind } from '@kreplay/native';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from './fake-runtime.js';
import { createTracker, type Tracker } from './tracker.js';

// A naive model of the inventory (arrays and linear scans) checked against the tracker after random
// allocate / free / tag sequences, on three agents and the host.

type Space = 0 | 1 | 2 | 'host';
const spaces: Space[] = [0, 1, 2, 'host'];
const agentIds = [0, 1, 2] as const;
const base = (space: Space) => (space === 'host' ? 2 ** 40 : (space + 1) * 2 ** 32);

interface ModelAllocation {
  id: number;
  space: Space;
  address: number;
  bytes: number;
  kind: MemoryKind;
  excluded: boolean;
  readOnly: boolean;
}

class Model {
  live: ModelAllocation[] = [];
  nextId = 1;
  highWater = new Map<number, number>();
  unknownFrees = 0;
  overlapped = 0;

  footprint(agentId: number): number {
    return this.live
      .filter((allocation) => allocation.space === agentId && !allocation.excluded)
      .reduce((sum, allocation) => sum + allocation.bytes, 0);
  }

  noteHighWater(): void {
    for (const agentId of agentIds) {
      this.highWater.set(agentId, Math.max(this.highWater.get(agentId) ?? 0, this.footprint(agentId)));
    }
  }

  find(address: number, only?: readonly Space[]): ModelAllocation | undefined {
    return this.live.find(
      (allocation) =>
        (only === undefined || only.includes(allocation.space)) &&
        allocation.address <= address &&
        address < allocation.address + allocation.bytes,
    );
  }
}

const operation = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('allocate' as const),
      space: fc.constantFrom(...spaces),
      slot: fc.nat(15),
      offset: fc.nat(3),
      bytes: fc.integer({ min: 1, max: 0x3000 }),
      streamOrdered: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('free' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('free-unknown' as const), space: fc.constantFrom(...spaces), slot: fc.nat(15) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('tag' as const),
      pick: fc.nat(),
      inside: fc.nat(),
      tag: fc.constantFrom('excluded' as const, 'read-only' as const),
      present: fc.boolean(),
    }),
  },
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

function apply(runtime: FakeRuntime, tracker: Tracker, model: Model, step: Operation): void {
  switch (step.op) {
    case 'allocate': {
      const address = base(step.space) + step.slot * 0x1000 + step.offset * 0x100;
      const end = address + step.bytes;
      const stale = model.live.filter(
        (allocation) => allocation.space === step.space && allocation.address < end && address < allocation.address + allocation.bytes,
      );
      model.overlapped += stale.length;
      model.live = model.live.filter((allocation) => !stale.includes(allocation));
      const kind: MemoryKind = step.space === 'host' ? (step.streamOrdered ? 'host-pinned' : 'host-pageable') : step.streamOrdered ? 'stream-ordered' : 'device';
      model.live.push({ id: model.nextId++, space: step.space, address, bytes: step.bytes, kind, excluded: false, readOnly: false });
      if (step.space === 'host') runtime.allocateHost(address, step.bytes, step.streamOrdered);
      else runtime.allocate(step.space, address, step.bytes, kind, kind === 'stream-ordered' ? 3 : undefined);
      break;
    }
    case 'free': {
      const victim = model.live[step.pick % Math.max(1, model.live.length)];
      if (victim === undefined) return;
      model.live = model.live.filter((allocation) => allocation !== victim);
      runtime.free(victim.space === 'host' ? null : victim.space, victim.address, victim.kind);
      break;
    }
    case 'free-unknown': {
      model.unknownFrees += 1;
      runtime.free(step.space === 'host' ? null : step.space, base(step.space) + step.slot * 0x1000 + 0x80);
      break;
    }
    case 'tag': {
      const target = model.live[step.pick % Math.max(1, model.live.length)];
      if (target === undefined) return;
      const address = target.address + (step.inside % target.bytes);
      if (step.tag === 'excluded') target.excluded = step.present;
      else target.readOnly = step.present;
      if (step.present) tracker.tag(address, step.tag);
      else tracker.untag(address, step.tag);
      break;
    }
  }
  model.noteHighWater();
}

function checkInventory(tracker: Tracker, model: Model, probes: readonly [number, number][]): void {
  for (const agentId of agentIds) {
    expect(tracker.footprintBytes(agentId)).toBe(model.footprint(agentId));
    expect(tracker.highWaterBytes(agentId)).toBe(model.highWater.get(agentId) ?? 0);
    const expected = model.live.filter((allocation) => allocation.space === agentId).sort((a, b) => a.address - b.address);
    expect(tracker.allocations(agentId).map((allocation) => [allocation.id, allocation.address, allocation.bytes])).toEqual(
      expected.map((allocation) => [allocation.id, allocation.address, allocation.bytes]),
    );
  }
  expect(tracker.hostAllocations().map((allocation) => allocation.id)).toEqual(
    model.live.filter((allocation) => allocation.space === 'host').sort((a, b) => a.address - b.address).map((allocation) => allocation.id),
  );
  for (const [spaceIndex, offset] of probes) {
    const address = base(spaces[spaceIndex % spaces.length]!) + offset;
    const found = tracker.find(address);
    const expected = model.find(address);
    expect(found?.id).toBe(expected?.id);
    if (expected !== undefined) {
      expect(found?.tags.has('excluded')).toBe(expected.excluded);
      expect(found?.tags.has('read-only')).toBe(expected.readOnly);
    }
  }
  const stats = tracker.stats();
  expect(stats.unknownFrees).toBe(model.unknownFrees);
  expect(stats.overlappedAllocations).toBe(model.overlapped);
}

// Naive resolution: one parameter at a time, linear scans.
const writeAccess = (access: Access | undefined) => access !== 'read';
function resolveNaively(model: Model, agentId: number, kernel: KernelDescriptor, args: KernelArguments) {
  const reached = new Map<number, { allocation: ModelAllocation; reads: boolean; writes: boolean; start: number; end: number; parameters: string[] }>();
  const unresolved: { parameter: string; address: number; peerAgentId?: number }[] = [];
  let reasons = 0;
  let bounded = true;
  const reach = (allocation: ModelAllocation, access: Access | undefined, start: number, end: number, name: string) => {
    const entry = reached.get(allocation.id) ?? { allocation, reads: false, writes: false, start, end, parameters: [] };
    entry.reads ||= access !== 'write';
    entry.writes ||= writeAccess(access);
    entry.start = Math.min(entry.start, start);
    entry.end = Math.max(entry.end, end);
    if (!entry.parameters.includes(name)) entry.parameters.push(name);
    reached.set(allocation.id, entry);
  };
  for (const parameter of kernel.parameters) {
    if (parameter.type === 'bytes') {
      if (parameter.indirect) {
        bounded = false;
        reasons += 1;
      }
      const buffer = args[parameter.name] as Uint8Array;
      for (let offset = 0; offset + 8 <= buffer.length; offset += 8) {
        const word = new DataView(buffer.buffer, buffer.byteOffset).getBigUint64(offset, true);
        if (word === 0n || word > BigInt(Number.MAX_SAFE_INTEGER)) continue;
        const allocation = model.find(Number(word), [agentId as Space, 'host']);
        if (allocation === undefined || allocation.excluded) continue;
        if (allocation.readOnly) reasons += 1;
        reach(allocation, 'unknown', Number(word), allocation.address + allocation.bytes, `${parameter.name}+${offset}`);
      }
      continue;
    }
    if (parameter.type !== 'pointer') continue;
    const address = Number(args[parameter.name]);
    const extent = parameter.extent === undefined ? undefined : 'constantBytes' in parameter.extent ? parameter.extent.constantBytes : Number(args[(parameter.extent as { bytesParameter: string }).bytesParameter]);
    if (address === 0 || extent === 0) continue;
    if (parameter.indirect) {
      bounded = false;
      reasons += 1;
    }
    const allocation = model.find(address, [agentId as Space, 'host']);
    if (allocation === undefined) {
      const peer = model.find(address);
      unresolved.push({ parameter: parameter.name, address, ...(peer && peer.space !== 'host' && { peerAgentId: peer.space }) });
      reasons += 1;
      continue;
    }
    if (allocation.excluded) continue;
    if (allocation.readOnly && writeAccess(parameter.access)) reasons += 1;
    const allocationEnd = allocation.address + allocation.bytes;
    let end = extent === undefined ? allocationEnd : address + extent;
    if (end > allocationEnd) {
      reasons += 1;
      end = allocationEnd;
    }
    reach(allocation, parameter.access, address, end, parameter.name);
  }
  return {
    reached: [...reached.values()]
      .sort((a, b) => a.allocation.address - b.allocation.address)
      .map((entry) => ({
        id: entry.allocation.id,
        access: entry.reads && entry.writes ? 'readwrite' : entry.writes ? 'write' : 'read',
        parameters: entry.parameters,
        range: { address: entry.start, bytes: entry.end - entry.start },
      })),
    bounded,
    unresolved,
    reasons,
  };
}

// Where a pointer or a word of a parameter buffer points: 0 (null), into a live allocation (pick,
// offset), or anywhere in a space.
const target = fc.oneof(
  fc.constant({ type: 'null' as const }),
  fc.record({ type: fc.constant('live' as const), pick: fc.nat(), inside: fc.nat() }),
  fc.record({ type: fc.constant('anywhere' as const), space: fc.nat(3), offset: fc.nat(0x12000) }),
);
type Target = typeof target extends fc.Arbitrary<infer T> ? T : never;

function addressOf(model: Model, where: Target): number {
  const live = model.live[where.type === 'live' ? where.pick % Math.max(1, model.live.length) : 0];
  if (where.type === 'null' || (where.type === 'live' && live === undefined)) return 0;
  return where.type === 'live' ? live!.address + (where.inside % live!.bytes) : base(spaces[where.space]!) + where.offset;
}

// A raw parameter buffer: words that are addresses or arbitrary 64-bit scalars, and a short tail.
const bufferParameter = fc.record({
  kind: fc.constant('bytes' as const),
  indirect: fc.nat(9).map((value) => value < 2),
  words: fc.array(fc.oneof(target, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })), { maxLength: 6 }),
  tail: fc.nat(7),
});

const pointerParameter = fc.record({
  kind: fc.constant('pointer' as const),
  access: fc.constantFrom<Access | undefined>('read', 'write', 'readwrite', 'unknown', undefined),
  indirect: fc.nat(9).map((value) => value < 2),
  extent: fc.oneof(fc.constant(undefined), fc.nat(0x2000).map((bytes) => ({ constantBytes: bytes })), fc.constant('bytes' as const)),
  target,
  bytes: fc.nat(0x2000),
});

const parameterSpec = fc.oneof({ weight: 3, arbitrary: pointerParameter }, { weight: 1, arbitrary: bufferParameter });

function buildDispatch(model: Model, specs: readonly (typeof parameterSpec extends fc.Arbitrary<infer T> ? T : never)[]) {
  const parameters: KernelParameter[] = [];
  const args: Record<string, number | bigint | Uint8Array> = {};
  specs.forEach((spec, index) => {
    const name = `p${index}`;
    if (spec.kind === 'bytes') {
      const buffer = new Uint8Array(spec.words.length * 8 + spec.tail).map((_, byte) => (byte * 37 + index) & 0xff);
      const view = new DataView(buffer.buffer);
      spec.words.forEach((word, position) => view.setBigUint64(position * 8, typeof word === 'bigint' ? word : BigInt(addressOf(model, word)), true));
      parameters.push({ name, type: 'bytes', size: buffer.length, ...(spec.indirect ? { indirect: true } : {}) });
      args[name] = buffer;
      return;
    }
    const extent = spec.extent === 'bytes' ? { bytesParameter: `n${index}` } : spec.extent;
    parameters.push({ name, type: 'pointer', ...(spec.access ? { access: spec.access } : {}), ...(spec.indirect ? { indirect: true } : {}), ...(extent ? { extent } : {}) });
    parameters.push({ name: `n${index}`, type: 'u64' });
    args[`n${index}`] = BigInt(spec.bytes);
    args[name] = addressOf(model, spec.target);
  });
  const kernel: KernelDescriptor = { name: 'random', deterministic: true, parameters };
  return { kernel, args };
}

describe('tracker vs a naive model (property)', () => {
  it('agrees on inventory, lookup, footprint, high-water and argument resolution', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 80 }),
        fc.array(fc.tuple(fc.nat(3), fc.nat(0x12000)), { maxLength: 40 }),
        fc.array(fc.tuple(fc.constantFrom(...agentIds), fc.array(parameterSpec, { minLength: 1, maxLength: 5 })), { maxLength: 6 }),
        (operations, probes, dispatches) => {
          const runtime = new FakeRuntime(3);
          const tracker = createTracker(runtime);
          const model = new Model();
          for (const step of operations) apply(runtime, tracker, model, step);
          checkInventory(tracker, model, probes);
          for (const [agentId, specs] of dispatches) {
            const { kernel, args } = buildDispatch(model, specs);
            const resolution = tracker.resolveArguments(agentId, kernel, args);
            const expected = resolveNaively(model, agentId, kernel, args);
            expect({
              reached: resolution.reached.map((reached) => ({ id: reached.allocation.id, access: reached.access, parameters: reached.parameters, range: reached.range })),
              bounded: resolution.bounded,
              unresolved: resolution.unresolved,
              reasons: resolution.reasons.length,
            }).toEqual(expected);
          }
          tracker.dispose();
        },
      ),
      { numRuns: 300 },
    );
  });
});
