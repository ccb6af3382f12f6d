import { snapshotArgumentError } from '../argument-error.js';
import type { StagingOptions } from '../staging-types.js';

/** Staging options with defaults applied. */
export interface StagingSettings {
  readonly hostBytesLimit: number | null;
  readonly deviceReserveBytes: number;
  readonly deviceBytesLimit: number | null;
  readonly reuse: 'pooled' | 'per-dispatch';
}

function requireByteCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw snapshotArgumentError('staging', name, `${name} must be a whole number of bytes >= 0, got ${String(value)}`, `Pass e.g. ${name}: 8 * 2 ** 30`);
  }
  return value;
}

/**
 * Applies defaults and checks every staging option.
 * @throws ArgumentError naming the option that is wrong.
 */
export function validateStagingOptions(options: StagingOptions): StagingSettings {
  const reuse = options.reuse ?? 'pooled';
  if (reuse !== 'pooled' && reuse !== 'per-dispatch') {
    throw snapshotArgumentError('staging', 'reuse', `reuse must be 'pooled' or 'per-dispatch', got ${String(reuse)}`, 'Leave it out for pooled staging');
  }
  return {
    hostBytesLimit: options.hostBytesLimit === undefined ? null : requireByteCount('hostBytesLimit', options.hostBytesLimit),
    deviceReserveBytes: requireByteCount('deviceReserveBytes', options.deviceReserveBytes ?? 0),
    deviceBytesLimit: options.deviceBytesLimit === undefined ? null : requireByteCount('deviceBytesLimit', options.deviceBytesLimit),
    reuse,
  };
}

/**
 * Checks the size of a lease request.
 * @throws ArgumentError when bytes is not a positive whole number.
 */
export function validateLeaseBytes(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw snapshotArgumentError('staging', 'bytes', `a lease needs a positive whole number of bytes, got ${String(bytes)}`, 'Ask for at least one byte');
  }
}
