import type { MemoryKind } from '../runtime/runtime-types.js';

/** A piece of memory the runtime handed out: device, stream-ordered, or a host buffer. */
export interface Allocation {
  readonly address: number;
  readonly bytes: number;
  readonly kind: MemoryKind;
  /** The agent owning device memory; `null` for host buffers. */
  readonly agentId: number | null;
  /** True once freed (or once its runtime was disposed). */
  readonly freed: boolean;
}
