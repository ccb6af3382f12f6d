/** A small deterministic generator (mulberry32), so every run of the kit sees the same data. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** `count` pseudo-random bytes from `seed`. */
export function randomBytes(count: number, seed: number): Uint8Array {
  const next = createRandom(seed);
  const bytes = new Uint8Array(count);
  for (let index = 0; index < count; index += 4) {
    const word = next();
    for (let lane = 0; lane < 4 && index + lane < count; lane += 1) {
      bytes[index + lane] = (word >>> (8 * lane)) & 0xff;
    }
  }
  return bytes;
}

/** `count` float32 values in `[minimum, maximum)` with full 24-bit mantissas, from `seed`. */
export function randomFloat32(count: number, seed: number, minimum: number, maximum: number): Float32Array {
  const next = createRandom(seed);
  const values = new Float32Array(count);
  for (let index = 0; index < count; index += 1) {
    values[index] = minimum + (next() / 2 ** 32) * (maximum - minimum);
  }
  return values;
}

/** The bytes of a typed array (a view, not a copy). */
export function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
