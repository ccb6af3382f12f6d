import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '@kreplay/native';
import type { SnapshotStrategy } from '../snapshot-strategy.js';
import type { StagingTierChoice } from '../staging-types.js';
import { checkByteAccount } from './check-byte-account.js';
import { openStrategyFixture, randomBytes } from './strategy-fixture.js';
import type { StrategyFixture } from './strategy-fixture.js';
import { allocateWorkload, readAll, replayByHand, replayDispatchByHand, runWithoutReplay, scatterArguments } from './replay-by-hand.js';
import { expectSameBytes, sameBytes } from './same-bytes.js';

/** Options of {@link testSnapshotStrategy}. */
export interface SnapshotStrategyTestOptions {
  /** Shown in the test names. */
  readonly name: string;
  /** Makes a fresh strategy staging in `tier`. */
  readonly create: (options: { readonly tier: StagingTierChoice }) => SnapshotStrategy;
  /** Opens the runtime to test on. Default: the host driver. */
  readonly open?: () => Promise<Runtime>;
  /** Tiers to test. Default: all four. */
  readonly tiers?: readonly StagingTierChoice[];
  /**
   * Whether the strategy's `auto` tier spans tiers when a snapshot does not fit the spare device
   * memory (device first, the rest in pinned host memory): the kit then replays with staging's
   * device limit set to {@link acrossTiersRoomBytes} and checks that each snapshot of the kit's
   * workload holds staging in both tiers and still restores exactly. Default true.
   */
  readonly acrossTiers?: boolean;
}

/**
 * The device staging the kit allows its cases across tiers (staging's `deviceBytesLimit`): less than
 * its workload. A limit rather than an allocation taking the rest of the device: a GPU driver
 * allocates in granules (2 MiB on CUDA), so what an allocation leaves free cannot be set to a few KiB.
 */
export const acrossTiersRoomBytes = 192 * 1024;

const allTiers: readonly StagingTierChoice[] = ['device', 'host-pinned', 'host-pageable', 'auto'];

/**
 * The conformance suite every snapshot strategy passes: bit-exact restoration before every pass,
 * a final state equal to a run without replay, fresh captures across dispatches, accounts equal to
 * the bytes that really moved (see {@link checkByteAccount}), no staging held after dispose, and
 * declines (never half-captures) over budget.
 */
export function testSnapshotStrategy(options: SnapshotStrategyTestOptions): void {
  const tiers = options.tiers ?? allTiers;
  let fixture: StrategyFixture | undefined;
  let reference: StrategyFixture | undefined;
  const open = async (stagingOptions = {}) => {
    fixture = await openStrategyFixture(options.open, stagingOptions);
    return fixture;
  };
  /** A second fixture for runs without replay, whose device memory no ballast limits. */
  const openReference = async () => (reference = await openStrategyFixture(options.open));
  afterEach(async () => {
    await fixture?.dispose();
    await reference?.dispose();
    fixture = undefined;
    reference = undefined;
  });

  describe(`snapshot strategy ${options.name}`, () => {
    it.each(tiers)('restores bit-exactly before every pass and ends like a run without replay (%s)', async (tier) => {
      const current = await open();
      const strategy = options.create({ tier });
      const workload = await allocateWorkload(current, 11, randomBytes);
      const original = await readAll(current, workload);
      const replay = await replayByHand(current, strategy, workload, 4, 0x1234);
      replay.beforePass.forEach((before, pass) => expectSameBytes(before, original, `memory before pass ${pass + 1}`));
      expectSameBytes(replay.after, await runWithoutReplay(current, original, 0x1234), 'memory after the last pass');
      expect(sameBytes(replay.after[1]!, original[1]!)).toBe(false);
      strategy.dispose?.();
    });

    it('captures memory as it is at each dispatch, not as it was at the first', async () => {
      const current = await open();
      const strategy = options.create({ tier: tiers[0]! });
      const workload = await allocateWorkload(current, 5, randomBytes);
      for (let dispatch = 0; dispatch < 4; dispatch += 1) {
        await current.agent.write(workload.buffer.address + dispatch * 70_001, randomBytes(9000, dispatch + 100));
        await current.agent.write(workload.source.address + dispatch * 4096, randomBytes(16, dispatch + 200));
        const original = await readAll(current, workload);
        const replay = await replayByHand(current, strategy, workload, 3, 77 + dispatch);
        replay.beforePass.forEach((before, pass) => expectSameBytes(before, original, `dispatch ${dispatch}, before pass ${pass + 1}`));
        expectSameBytes(replay.after, await runWithoutReplay(current, original, 77 + dispatch), `dispatch ${dispatch}, after`);
      }
      strategy.dispose?.();
    });

    it('restores exactly across dispatches run back to back, with nothing issued between them', async () => {
      const current = await open();
      const strategy = options.create({ tier: tiers[0]! });
      const workload = await allocateWorkload(current, 8, randomBytes);
      const original = await readAll(current, workload);
      const seeds = [31, 31, 47, 31, 59];
      for (const [dispatch, seed] of seeds.entries()) {
        const before = await readAll(current, workload); // reads issue no work
        const replay = await replayByHand(current, strategy, workload, 3, seed);
        replay.beforePass.forEach((memory, pass) => expectSameBytes(memory, before, `dispatch ${dispatch}, before pass ${pass + 1}`));
      }
      let expected = original;
      for (const seed of seeds) expected = await runWithoutReplay(current, expected, seed);
      expectSameBytes(await readAll(current, workload), expected, 'memory after every dispatch');
      strategy.dispose?.();
    });

    it('restores exactly when a dispatch puts back what an earlier one overwrote', async () => {
      const current = await open();
      const strategy = options.create({ tier: tiers[0]! });
      const buffer = current.agent.allocate(96 * 1024 + 100);
      await current.agent.write(buffer.address, new Uint8Array(buffer.bytes));
      const read = async () => [await current.agent.read(buffer.address, buffer.bytes)];
      // Back to back, nothing issued between: 7s, zeros again (the contents before the first), 7s.
      for (const value of [0x07070707, 0, 0x07070707, 0]) {
        const before = await read();
        const fill = { kernel: current.runtime.kernels.fill, args: { destination: buffer.address, bytes: buffer.bytes, value } };
        const replay = await replayDispatchByHand(current, strategy, fill, 3, read);
        replay.beforePass.forEach((memory, pass) => expectSameBytes(memory, before, `fill ${value}, before pass ${pass + 1}`));
        expect(replay.after[0]!.every((byte) => byte === (value & 0xff))).toBe(true);
      }
      strategy.dispose?.();
    });

    it('restores a pinned host buffer the kernel writes through arguments it cannot bound', async () => {
      const current = await open();
      const strategy = options.create({ tier: tiers[0]! });
      const workload = await allocateWorkload(current, 9, randomBytes);
      using host = current.runtime.allocateHost(96 * 1024 + 100, { pinned: true });
      host.view().set(randomBytes(host.bytes, 93));
      const read = async () => [host.view().slice(), ...(await readAll(current, workload))];
      const original = await read();
      // The built-in fill, its destination declared indirect (as a captured launch's parameter
      // buffer is): what it reaches cannot be bounded, so the strategy takes every allocation.
      const { fill } = current.runtime.kernels;
      const kernel = { ...fill, parameters: fill.parameters.map((parameter) => (parameter.name === 'destination' ? { ...parameter, indirect: true } : parameter)) };
      const dispatch = { kernel, args: { destination: host.address, bytes: host.bytes, value: 0x5a5a5a5a } };
      const replay = await replayDispatchByHand(current, strategy, dispatch, 3, read);
      replay.beforePass.forEach((before, pass) => expectSameBytes(before, original, `memory before pass ${pass + 1}`));
      expect(replay.after[0]!.every((byte) => byte === 0x5a)).toBe(true);
      strategy.dispose?.();
    });

    it.each(tiers)('accounts exactly the bytes that moved and were hashed, and the staging it held (%s)', async (tier) => {
      const current = await open();
      const strategy = options.create({ tier });
      await checkByteAccount(current, strategy);
      strategy.dispose?.();
    });

    it('holds no staging once released and disposed', async () => {
      const current = await open();
      const strategy = options.create({ tier: tiers[0]! });
      const workload = await allocateWorkload(current, 4, randomBytes);
      for (let dispatch = 0; dispatch < 3; dispatch += 1) await replayByHand(current, strategy, workload, 2, dispatch);
      strategy.dispose?.();
      expect(current.staging.usage().leasedBytes).toBe(0);
    });

    it('declines with a reason, and captures nothing, when staging is over budget', async () => {
      const current = await open({ hostBytesLimit: 4096 });
      const strategy = options.create({ tier: 'host-pinned' });
      const workload = await allocateWorkload(current, 6, randomBytes);
      const prepared = strategy.prepare(current.dispatch(current.runtime.kernels.scatterWrite, {
        buffer: workload.buffer.address, bytes: workload.buffer.bytes, pageBytes: 4096, fraction: 0.5, seed: 1,
        source: workload.source.address, sourceBytes: workload.source.bytes,
      }));
      expect(prepared.kind).toBe('declined');
      if (prepared.kind === 'declined') expect(prepared.reason).toMatch(/limit/);
      expect(current.staging.usage().leasedBytes).toBe(0);
      strategy.dispose?.();
    });
  });

  describe.skipIf(options.acrossTiers === false)(`snapshot strategy ${options.name} across tiers (auto, ${acrossTiersRoomBytes / 1024} KiB of device staging)`, () => {
    const expectBothTiers = (account: { readonly staging: Readonly<Record<string, number>> }, what: string) => {
      expect(account.staging.device, `${what}: device staging`).toBeGreaterThan(0);
      expect(account.staging['host-pinned'], `${what}: pinned host staging`).toBeGreaterThan(0);
    };

    it('stages in both tiers, restores bit-exactly before every pass and ends like a run without replay', async () => {
      const current = await open({ deviceBytesLimit: acrossTiersRoomBytes });
      const plain = await openReference();
      const strategy = options.create({ tier: 'auto' });
      const workload = await allocateWorkload(current, 11, randomBytes);
      const original = await readAll(current, workload);
      const replay = await replayByHand(current, strategy, workload, 4, 0x1234);
      expectBothTiers(replay.account, 'the snapshot');
      replay.beforePass.forEach((before, pass) => expectSameBytes(before, original, `memory before pass ${pass + 1}`));
      expectSameBytes(replay.after, await runWithoutReplay(plain, original, 0x1234), 'memory after the last pass');
      strategy.dispose?.();
    });

    it('restores exactly across dispatches, with host writes between and back to back', async () => {
      const current = await open({ deviceBytesLimit: acrossTiersRoomBytes });
      const plain = await openReference();
      const strategy = options.create({ tier: 'auto' });
      const workload = await allocateWorkload(current, 5, randomBytes);
      for (const [dispatch, seed] of [77, 78, 78, 91, 78].entries()) {
        if (dispatch % 2 === 1) await current.agent.write(workload.buffer.address + dispatch * 70_001, randomBytes(9000, dispatch + 100));
        const original = await readAll(current, workload);
        const replay = await replayByHand(current, strategy, workload, 3, seed);
        // Later dispatches may stage elsewhere: a GPU driver's queues take device scratch of their own as they go.
        if (dispatch === 0) expectBothTiers(replay.account, 'the first dispatch');
        replay.beforePass.forEach((before, pass) => expectSameBytes(before, original, `dispatch ${dispatch}, before pass ${pass + 1}`));
        expectSameBytes(replay.after, await runWithoutReplay(plain, original, seed), `dispatch ${dispatch}, after`);
      }
      strategy.dispose?.();
      expect(current.staging.usage().leasedBytes).toBe(0);
    });

    it('accounts exactly the bytes that moved and were hashed in each tier', async () => {
      const current = await open({ deviceBytesLimit: acrossTiersRoomBytes });
      const strategy = options.create({ tier: 'auto' });
      await checkByteAccount(current, strategy);
      strategy.dispose?.();
    });

    it('declines whole, holding no staging, when the part past the device room does not fit the host limit', async () => {
      const current = await open({ hostBytesLimit: 64 * 1024, deviceBytesLimit: acrossTiersRoomBytes });
      const strategy = options.create({ tier: 'auto' });
      const workload = await allocateWorkload(current, 6, randomBytes);
      const prepared = strategy.prepare(current.dispatch(current.runtime.kernels.scatterWrite, scatterArguments(workload, 1)));
      expect(prepared.kind).toBe('declined');
      if (prepared.kind === 'declined') expect(prepared.reason).toMatch(/host limit/);
      expect(current.staging.usage().leasedBytes).toBe(0);
      strategy.dispose?.();
    });
  });
}
