import type { ArgumentResolution } from '@kreplay/tracker';
import type { DispatchRequest } from './dispatch-request.js';

/** Why a dispatch was run once instead of replayed. */
export type DeclineCode =
  | 'graph'
  | 'cross-device'
  | 'unresolved-arguments'
  | 'snapshot-declined'
  | 'capture-failed'
  /** A range only: memory a dispatch reaches was freed or allocated again after the range was requested. */
  | 'allocations-changed';

/** A decline: its kind and a reason in plain words. */
export interface Decline {
  readonly code: DeclineCode;
  readonly reason: string;
}

/** The decline a request's flags or arguments call for before any snapshot is planned, if any (a graph launch's request names its graph as `kernel`). */
export function declineBeforePreparing(request: Pick<DispatchRequest, 'kernel' | 'crossDevice' | 'graph'>, resolution: ArgumentResolution): Decline | undefined {
  if (request.graph === true) {
    return { code: 'graph', reason: `kernel ${request.kernel.name} stands for a graph launch the engine cannot see into (graph: true); dispatch { queue, graph } with a KernelGraph to replay one` };
  }
  if (request.crossDevice === true) {
    return {
      code: 'cross-device',
      reason: `kernel ${request.kernel.name} takes part in cross-device work, which one device's snapshot cannot replay`,
    };
  }
  const peers = resolution.unresolved.filter((pointer) => pointer.peerAgentId !== undefined);
  if (peers.length > 0) {
    const pointers = peers.map((pointer) => `"${pointer.parameter}" (agent ${pointer.peerAgentId})`);
    return {
      code: 'cross-device',
      reason: `kernel ${request.kernel.name} reaches another agent's memory through ${pointers.join(', ')} (peer access), which one device's snapshot cannot replay`,
    };
  }
  if (resolution.unresolved.length > 0) {
    const pointers = resolution.unresolved.map((pointer) => `"${pointer.parameter}" (0x${pointer.address.toString(16)})`);
    const detail = resolution.reasons.length > 0 ? `: ${resolution.reasons.join('; ')}` : '';
    return {
      code: 'unresolved-arguments',
      reason: `pointer arguments ${pointers.join(', ')} of kernel ${request.kernel.name} are in no tracked allocation${detail}`,
    };
  }
  return undefined;
}

/** The decline of a strategy that could not plan a snapshot (e.g. over budget). */
export function snapshotDeclined(strategyName: string, reason: string): Decline {
  return { code: 'snapshot-declined', reason: `strategy ${strategyName} declined: ${reason}` };
}

/** The decline of a dispatch whose capture failed on the device. */
export function captureFailed(strategyName: string, error: unknown): Decline {
  return { code: 'capture-failed', reason: `the ${strategyName} capture failed on the device: ${errorMessage(error)}` };
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
