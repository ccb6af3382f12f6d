import type { ResolvedEngineOptions } from './engine-options.js';
import type { HashBufferPool } from './hash-buffer-pool.js';
import type { RangeLock } from './range-lock.js';

/** The engine's settings and shared state, as one window sees them. */
export interface EngineContext extends ResolvedEngineOptions {
  readonly lock: RangeLock;
  readonly hashBuffers: HashBufferPool;
}
