import type { Access } from '@kreplay/native';

/** An access after resolution: `unknown` has become `readwrite`. */
export type ResolvedAccess = Exclude<Access, 'unknown'>;

const readBit = 1;
const writeBit = 2;

/** The access bits of a declared access; absent or `unknown` counts as readwrite. */
export function accessBits(access: Access | undefined): number {
  switch (access) {
    case 'read':
      return readBit;
    case 'write':
      return writeBit;
    default:
      return readBit | writeBit;
  }
}

/** The access that access bits stand for. */
export function accessFromBits(bits: number): ResolvedAccess {
  if (bits === readBit) return 'read';
  if (bits === writeBit) return 'write';
  return 'readwrite';
}

/** Whether a declared access may write (write, readwrite, unknown or absent). */
export function mayWrite(access: Access | undefined): boolean {
  return (accessBits(access) & writeBit) !== 0;
}
