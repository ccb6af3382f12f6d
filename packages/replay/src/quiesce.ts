import type { Agent } from '@kreplay/native';
import { errorMessage } from './decline.js';

/**
 * Waits for every queue of the agent (the reference design's drain). An error another queue
 * reports is noted, not thrown: it belongs to that queue's work. Returns host milliseconds waited.
 */
export async function quiesceAgent(agent: Agent, notes: string[]): Promise<number> {
  const started = performance.now();
  try {
    await agent.synchronize();
  } catch (error) {
    notes.push(`waiting for every queue of agent ${agent.id} reported an error of other work: ${errorMessage(error)}`);
  }
  return performance.now() - started;
}
