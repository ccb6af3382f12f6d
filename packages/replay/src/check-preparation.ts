import type { SnapshotPreparation } from '@kreplay/snapshot';
import { hasMethods } from './validate.js';

const snapshotMethods = ['capture', 'restore', 'finish', 'account', 'release'];

/**
 * Checks what a strategy's `prepare` returned against the contract.
 * @throws {TypeError} when it is neither a ready snapshot nor a decline with a reason (the caller
 * wraps it as the strategy's error).
 */
export function checkPreparation(preparation: SnapshotPreparation): SnapshotPreparation {
  if (typeof preparation === 'object' && preparation !== null) {
    if (preparation.kind === 'declined' && typeof preparation.reason === 'string') return preparation;
    if (preparation.kind === 'ready' && hasMethods(preparation.snapshot, snapshotMethods) && Array.isArray(preparation.snapshot.ranges)) {
      return preparation;
    }
  }
  throw new TypeError(
    "prepare() must return { kind: 'ready', snapshot } (a snapshot with ranges, capture, restore, finish, account and release) or { kind: 'declined', reason }",
  );
}
