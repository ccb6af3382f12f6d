import { accessBits, accessFromBits } from './access.js';
import { frozenReached, frozenResolution } from './argument-resolution.js';
import type { ArgumentResolution, ReachedAllocation, UnresolvedPointer } from './argument-resolution.js';

interface Merging {
  readonly first: ReachedAllocation;
  bits: number;
  start: number;
  end: number;
  readonly parameters: string[];
}

/** The last merge per first resolution: a loop over the same range hands back the same object. */
const remembered = new WeakMap<ArgumentResolution, { readonly parts: readonly ArgumentResolution[]; readonly merged: ArgumentResolution }>();

/**
 * The resolution of a sequence of dispatches taken as one: every allocation any of them reaches
 * (one entry per allocation, by address) with the strongest access of all of them, the range
 * covering every range they reach in it and the union of their parameter names; bounded when each
 * is; their reasons and unresolved pointers, in order. Frozen, like the tracker's own resolutions.
 * One resolution is returned as it is; the same resolutions again (the tracker hands out the same
 * one while its inventory is unchanged) give the same merged object.
 * @throws {RangeError} when `resolutions` is empty.
 */
export function mergeResolutions(resolutions: readonly ArgumentResolution[]): ArgumentResolution {
  const head = resolutions[0];
  if (head === undefined) throw new RangeError('[tracker] [merge-resolutions] there is no resolution to merge. Pass at least one.');
  if (resolutions.length === 1) return head;
  const known = remembered.get(head);
  if (known !== undefined && sameParts(known.parts, resolutions)) return known.merged;
  const merged = merge(resolutions);
  remembered.set(head, { parts: Object.freeze([...resolutions]), merged });
  return merged;
}

function merge(resolutions: readonly ArgumentResolution[]): ArgumentResolution {
  const byAllocation = new Map<number, Merging>();
  const reasons: string[] = [];
  const unresolved: UnresolvedPointer[] = [];
  let bounded = true;
  for (const resolution of resolutions) {
    bounded &&= resolution.bounded;
    reasons.push(...resolution.reasons);
    unresolved.push(...resolution.unresolved);
    for (const reached of resolution.reached) {
      const start = reached.range.address;
      const end = start + reached.range.bytes;
      const merging = byAllocation.get(reached.allocation.id);
      if (merging === undefined) {
        byAllocation.set(reached.allocation.id, { first: reached, bits: accessBits(reached.access), start, end, parameters: [...reached.parameters] });
        continue;
      }
      merging.bits |= accessBits(reached.access);
      merging.start = Math.min(merging.start, start);
      merging.end = Math.max(merging.end, end);
      for (const name of reached.parameters) if (!merging.parameters.includes(name)) merging.parameters.push(name);
    }
  }
  return frozenResolution(Array.from(byAllocation.values(), toReached), bounded, reasons, unresolved);
}

function toReached(merging: Merging): ReachedAllocation {
  const { first, bits, start, end, parameters } = merging;
  const unchanged = accessFromBits(bits) === first.access && start === first.range.address && end - start === first.range.bytes && parameters.length === first.parameters.length;
  if (unchanged && Object.isFrozen(first)) return first;
  return frozenReached({ allocation: first.allocation, bits, start, end, parameters });
}

function sameParts(left: readonly ArgumentResolution[], right: readonly ArgumentResolution[]): boolean {
  return left.length === right.length && left.every((part, index) => part === right[index]);
}
