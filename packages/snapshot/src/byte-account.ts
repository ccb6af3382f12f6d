import type { StagingTier } from './staging-types.js';

/** Bytes moved and hashed, by direction and staging tier. Exact, never estimated. */
export interface ByteAccount {
  readonly deviceToDevice: number;
  readonly deviceToHost: number;
  readonly hostToDevice: number;
  readonly hostToHost: number;
  readonly hashed: number;
  /** Staging bytes held for the dispatch, by tier. */
  readonly staging: Readonly<Record<StagingTier, number>>;
}

/** An account with every count at zero. */
export function emptyByteAccount(): ByteAccount {
  return {
    deviceToDevice: 0,
    deviceToHost: 0,
    hostToDevice: 0,
    hostToHost: 0,
    hashed: 0,
    staging: { device: 0, 'host-pinned': 0, 'host-pageable': 0 },
  };
}

/** The sum of two accounts. */
export function addByteAccounts(left: ByteAccount, right: ByteAccount): ByteAccount {
  return {
    deviceToDevice: left.deviceToDevice + right.deviceToDevice,
    deviceToHost: left.deviceToHost + right.deviceToHost,
    hostToDevice: left.hostToDevice + right.hostToDevice,
    hostToHost: left.hostToHost + right.hostToHost,
    hashed: left.hashed + right.hashed,
    staging: {
      device: left.staging.device + right.staging.device,
      'host-pinned': left.staging['host-pinned'] + right.staging['host-pinned'],
      'host-pageable': left.staging['host-pageable'] + right.staging['host-pageable'],
    },
  };
}

/** All bytes copied, every direction. */
export function bytesCopied(account: ByteAccount): number {
  return account.deviceToDevice + account.deviceToHost + account.hostToDevice + account.hostToHost;
}
