import type { AllocationTag } from './allocation-tag.js';

/**
 * A read-only window on a set of tags that the tracker alone changes: callers see tags added and
 * removed later, but cannot change them (so footprint accounting cannot be bypassed).
 */
export class TagSetView implements ReadonlySet<AllocationTag> {
  readonly #tags: Set<AllocationTag>;

  constructor(tags: Set<AllocationTag>) {
    this.#tags = tags;
  }

  get size(): number {
    return this.#tags.size;
  }

  has(tag: AllocationTag): boolean {
    return this.#tags.has(tag);
  }

  forEach(
    callback: (value: AllocationTag, key: AllocationTag, set: ReadonlySet<AllocationTag>) => void,
    thisArgument?: unknown,
  ): void {
    for (const tag of this.#tags) callback.call(thisArgument, tag, tag, this);
  }

  entries(): SetIterator<[AllocationTag, AllocationTag]> {
    return this.#tags.entries();
  }

  keys(): SetIterator<AllocationTag> {
    return this.#tags.keys();
  }

  values(): SetIterator<AllocationTag> {
    return this.#tags.values();
  }

  [Symbol.iterator](): SetIterator<AllocationTag> {
    return this.#tags.values();
  }

  get [Symbol.toStringTag](): string {
    return 'TagSetView';
  }
}
