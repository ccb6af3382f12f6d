/**
 * Packed options remembered per options object, for options a caller enqueues again and again (a
 * mirror's copies, every window). Only deeply frozen options are remembered, so their values cannot
 * have changed; a remembered packing is used again only while no memory was freed since it was
 * made, since a free is the only thing that can make a range that was live invalid.
 * @internal
 */
export class FrozenOptionsMemo<Packed> {
  readonly #packed = new WeakMap<object, { readonly frees: number; readonly packed: Packed }>();

  /** The packing of `options`: remembered when still valid, else made by `pack` (which validates, and may throw). */
  packed(options: unknown, frees: number, pack: () => Packed): Packed {
    // An object remembered here was deeply frozen when it was first seen, so it still is.
    const known = typeof options === 'object' && options !== null ? this.#packed.get(options) : undefined;
    if (known !== undefined && known.frees === frees) return known.packed;
    if (known === undefined && !isFrozenOptions(options)) return pack();
    const packed = pack();
    this.#packed.set(options as object, { frees, packed });
    return packed;
  }
}

/** A frozen object or array whose object members (one level down: segments) are frozen too, their members as well. */
function isFrozenOptions(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return false;
  for (const member of Array.isArray(value) ? value : Object.values(value)) {
    if (typeof member === 'object' && member !== null && !isFrozenOptions(member)) return false;
  }
  return true;
}
