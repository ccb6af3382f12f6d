import type { SnapshotStrategy } from '../snapshot-strategy.js';

/**
 * A broken strategy for tests: `inner`'s snapshots, except that restore does nothing, so every
 * pass after the first starts from what the pass before it left.
 */
export function restoreNothingStrategy(inner: SnapshotStrategy): SnapshotStrategy {
  return {
    specificationVersion: inner.specificationVersion,
    name: `${inner.name}-restoring-nothing`,
    prepare(dispatch) {
      const prepared = inner.prepare(dispatch);
      if (prepared.kind !== 'ready') return prepared;
      const { snapshot } = prepared;
      return {
        kind: 'ready',
        snapshot: {
          ranges: snapshot.ranges,
          tier: snapshot.tier,
          notes: snapshot.notes,
          capture: () => snapshot.capture(),
          restore() {},
          finish: () => snapshot.finish(),
          account: () => snapshot.account(),
          release: (end) => snapshot.release(end),
        },
      };
    },
    dispose: () => inner.dispose?.(),
  };
}
