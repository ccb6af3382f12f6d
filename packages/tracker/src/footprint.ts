/**
 * Live bytes and their high-water per agent. The tracker adds an allocation's bytes when it is
 * allocated (or loses its `excluded` tag) and subtracts them when it is freed (or gains the tag).
 */
export class Footprint {
  readonly #liveBytes = new Map<number, number>();
  readonly #highWaterBytes = new Map<number, number>();

  /** Live bytes of the agent. */
  bytes(agentId: number): number {
    return this.#liveBytes.get(agentId) ?? 0;
  }

  /** The most live bytes the agent has had at once. */
  highWaterBytes(agentId: number): number {
    return this.#highWaterBytes.get(agentId) ?? 0;
  }

  add(agentId: number, bytes: number): void {
    const live = this.bytes(agentId) + bytes;
    this.#liveBytes.set(agentId, live);
    if (live > this.highWaterBytes(agentId)) this.#highWaterBytes.set(agentId, live);
  }

  subtract(agentId: number, bytes: number): void {
    this.#liveBytes.set(agentId, this.bytes(agentId) - bytes);
  }
}
