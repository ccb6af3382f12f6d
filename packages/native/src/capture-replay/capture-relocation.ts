/**
 * Relocation of captured memory the driver would not place at its captured address: where each
 * moved range went, and the parameter buffer's pointer-sized words rewritten to follow it.
 * @internal
 */

/** A captured range and where the replay placed it instead. */
export interface CaptureRelocation {
  readonly from: number;
  readonly to: number;
  readonly bytes: number;
  /** What the region is: device or host memory. */
  readonly placement: 'device' | 'host';
  /** Why it is not at `from`: the refusal of the exact placement, or that the placement policy is `relocate`. */
  readonly reason: string;
}

/** The part of a relocation that moves addresses. */
export type AddressMove = Pick<CaptureRelocation, 'from' | 'to' | 'bytes'>;

/** Where `address` is now: moved with the relocation holding it, else itself. */
export function relocatedAddress(relocations: readonly AddressMove[], address: number): number {
  for (const relocation of relocations) {
    if (address >= relocation.from && address < relocation.from + relocation.bytes) return address - relocation.from + relocation.to;
  }
  return address;
}

/**
 * The parameter buffer with every 8-byte-aligned little-endian word that points into a relocated
 * range rewritten to the new place (as the tracker reads pointer-sized slots), and how many were.
 * Words that point elsewhere are left as they are.
 */
export function relocateParameterWords(buffer: Uint8Array, relocations: readonly AddressMove[]): { readonly buffer: Uint8Array; readonly rewritten: number } {
  const copy = buffer.slice();
  if (relocations.length === 0) return { buffer: copy, rewritten: 0 };
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  let rewritten = 0;
  for (let offset = 0; offset + 8 <= copy.byteLength; offset += 8) {
    const word = view.getBigUint64(offset, true);
    if (word === 0n || word > BigInt(Number.MAX_SAFE_INTEGER)) continue;
    const address = Number(word);
    const moved = relocatedAddress(relocations, address);
    if (moved === address) continue;
    view.setBigUint64(offset, BigInt(moved), true);
    rewritten += 1;
  }
  return { buffer: copy, rewritten };
}
