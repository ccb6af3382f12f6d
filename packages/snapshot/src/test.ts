/**
 * @kreplay/snapshot/test — the conformance suite every snapshot strategy passes, and the fixture
 * it is built on, for strategies of your own.
 */
export { testSnapshotStrategy } from './test/test-snapshot-strategy.js';
export type { SnapshotStrategyTestOptions } from './test/test-snapshot-strategy.js';
export { acrossTiersRoomBytes } from './test/test-snapshot-strategy.js';
export { limitDeviceRoom } from './test/device-ballast.js';
export { openStrategyFixture, randomBytes } from './test/strategy-fixture.js';
export type { StrategyFixture } from './test/strategy-fixture.js';
export { expectSameBytes, sameBytes } from './test/same-bytes.js';
export { checkByteAccount } from './test/check-byte-account.js';
export { meterCopies } from './test/copy-meter.js';
export type { CopyMeter, MovedBytes } from './test/copy-meter.js';
export { restoreNothingStrategy } from './test/restore-nothing-strategy.js';
