import type { MemoryKind } from '@kreplay/native';
import type { ByteAccount } from './byte-account.js';
import type { StagingTier } from './staging-types.js';

type Direction = 'deviceToDevice' | 'deviceToHost' | 'hostToDevice' | 'hostToHost';

/** True when memory of this kind lives on a device. */
export function isDeviceKind(kind: MemoryKind | StagingTier): boolean {
  return kind === 'device' || kind === 'stream-ordered';
}

/** The account field a copy from `source` to `destination` counts in. */
export function copyDirection(source: MemoryKind | StagingTier, destination: MemoryKind | StagingTier): Direction {
  const fromDevice = isDeviceKind(source);
  const toDevice = isDeviceKind(destination);
  if (fromDevice) return toDevice ? 'deviceToDevice' : 'deviceToHost';
  return toDevice ? 'hostToDevice' : 'hostToHost';
}

/** A mutable account a snapshot adds to as it enqueues work. */
export class AccountBuilder {
  deviceToDevice = 0;
  deviceToHost = 0;
  hostToDevice = 0;
  hostToHost = 0;
  hashed = 0;
  readonly staging: Record<StagingTier, number> = { device: 0, 'host-pinned': 0, 'host-pageable': 0 };

  addCopy(source: MemoryKind | StagingTier, destination: MemoryKind | StagingTier, bytes: number): void {
    this[copyDirection(source, destination)] += bytes;
  }

  /** An independent copy, to settle counts known only after the queue completed. */
  clone(): AccountBuilder {
    const copy = new AccountBuilder();
    copy.deviceToDevice = this.deviceToDevice;
    copy.deviceToHost = this.deviceToHost;
    copy.hostToDevice = this.hostToDevice;
    copy.hostToHost = this.hostToHost;
    copy.hashed = this.hashed;
    Object.assign(copy.staging, this.staging);
    return copy;
  }

  snapshot(): ByteAccount {
    return {
      deviceToDevice: this.deviceToDevice,
      deviceToHost: this.deviceToHost,
      hostToDevice: this.hostToDevice,
      hostToHost: this.hostToHost,
      hashed: this.hashed,
      staging: { ...this.staging },
    };
  }
}
