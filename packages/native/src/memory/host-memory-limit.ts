/**
 * How much emulated device memory the host driver may take: its arenas live in this machine's
 * memory, so all agents' arenas together must fit physical memory minus a reserve, and a host byte
 * limit when one is given. Checked before the driver opens, so a size the machine cannot hold is
 * refused instead of running the machine out of memory once the arenas fill. What is left beside
 * the arenas is host staging's default budget ({@link hostStagingBudget}).
 */
import { totalmem } from 'node:os';
import type { ArgumentError } from '../errors/argument-error.js';
import { argumentError } from '../errors/validate.js';

/** The least host memory left to everything else (the JS heap, staging, the OS): 1 GiB. */
const MINIMUM_RESERVE_BYTES = 2 ** 30;

/** The share of physical memory left to everything else when that is more than the minimum. */
const RESERVE_SHARE = 0.1;

/** What {@link checkHostArenas} checks. */
export interface HostArenaRequest {
  readonly agents: number;
  /** Each agent's arena. */
  readonly deviceMemoryBytes: number;
  /** The machine's physical memory; {@link physicalMemoryBytes} in openRuntime, any figure in tests. */
  readonly physicalBytes: number;
  /** The most host bytes all arenas may take together; undefined: no limit beyond physical memory. */
  readonly hostBytesLimit?: number | undefined;
}

/** This machine's physical memory, in bytes. */
export function physicalMemoryBytes(): number {
  return totalmem();
}

/** The host memory the arenas leave to everything else: max(1 GiB, 10% of physical memory). */
export function hostMemoryReserveBytes(physicalBytes: number): number {
  return Math.max(MINIMUM_RESERVE_BYTES, Math.ceil(physicalBytes * RESERVE_SHARE));
}

/** Bytes in binary units with up to two decimals: `48 GiB`, `21.6 GiB`, `512 KiB`. */
function formatBinaryBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let unit = 0;
  while (unit < units.length - 1 && Math.abs(bytes) >= 1024 ** (unit + 1)) unit += 1;
  const value = Number((bytes / 1024 ** unit).toFixed(2));
  return `${value} ${units[unit]}`;
}

/**
 * The error for arenas that do not fit, or null when they do.
 * @internal
 */
export function hostArenaRefusal(request: HostArenaRequest): ArgumentError | null {
  const { agents, deviceMemoryBytes, physicalBytes, hostBytesLimit } = request;
  const requested = agents * deviceMemoryBytes;
  const reserve = hostMemoryReserveBytes(physicalBytes);
  const fromPhysical = Math.max(0, physicalBytes - reserve);
  const available = hostBytesLimit === undefined ? fromPhysical : Math.min(fromPhysical, hostBytesLimit);
  if (requested <= available) return null;
  const size = formatBinaryBytes;
  const limit = hostBytesLimit === undefined ? '' : `, a host limit of ${size(hostBytesLimit)}`;
  return argumentError(
    'runtime',
    'options.host.deviceMemoryBytes',
    `the host driver's device memory does not fit this machine: ${agents} agent${agents === 1 ? '' : 's'} x ${size(deviceMemoryBytes)} = ${size(requested)} requested, ` +
      `${size(physicalBytes)} of physical memory, ${size(reserve)} kept in reserve (the larger of 1 GiB and 10%)${limit}, so ${size(available)} available`,
    `Give each agent less device memory (kreplay --device-memory, options.host.deviceMemoryBytes) or emulate fewer agents (kreplay --agents, options.host.agents), so that agents x device memory is at most ${size(available)}`,
  );
}

/**
 * Refuses host-driver arenas the machine cannot hold.
 * @throws {ArgumentError} when agents x deviceMemoryBytes exceeds physical memory minus the reserve, or the host byte limit.
 * @internal
 */
export function checkHostArenas(request: HostArenaRequest): void {
  const refusal = hostArenaRefusal(request);
  if (refusal) throw refusal;
}

/** What {@link hostStagingBudget} found: the bytes left for host staging, and the figures behind them. */
export interface HostStagingBudget {
  /** Physical memory less the reserve and the host driver's arenas; 0 when nothing is left. */
  readonly bytes: number;
  readonly physicalBytes: number;
  /** max(1 GiB, 10% of physical memory), as {@link hostMemoryReserveBytes}. */
  readonly reserveBytes: number;
  /** The host driver's arenas (agents x device memory): this machine's memory too. 0 on a GPU driver. */
  readonly arenaBytes: number;
}

/**
 * The host memory a runtime leaves for host staging (pinned and pageable snapshots, mirrors) on this
 * machine: physical memory less the reserve the arena check keeps, and, on the host driver, less its
 * agents' arenas, which live in the same memory. The arena check lets an arena take nearly all of
 * the machine; a snapshot staged on the host beside it would take as much again. `@kreplay/snapshot`
 * holds host staging within this unless given a limit of its own.
 * @param runtime the runtime (its driver and its agents' device memory).
 * @param physicalBytes the machine's memory; {@link physicalMemoryBytes} unless given (any figure in tests).
 */
export function hostStagingBudget(
  runtime: { readonly driver: string; readonly agents: readonly { readonly info: { readonly deviceMemoryBytes: number } }[] },
  physicalBytes: number = physicalMemoryBytes(),
): HostStagingBudget {
  const reserveBytes = hostMemoryReserveBytes(physicalBytes);
  const arenaBytes = runtime.driver === 'host' ? runtime.agents.reduce((sum, agent) => sum + agent.info.deviceMemoryBytes, 0) : 0;
  return { bytes: Math.max(0, physicalBytes - reserveBytes - arenaBytes), physicalBytes, reserveBytes, arenaBytes };
}

/** `23.4 GiB of physical memory less 2.34 GiB kept in reserve and 8 GiB of the host driver's device memory`: a budget's figures in words. */
export function describeHostStagingBudget(budget: HostStagingBudget): string {
  const arenas = budget.arenaBytes > 0 ? ` and ${formatBinaryBytes(budget.arenaBytes)} of the host driver's device memory` : '';
  return `${formatBinaryBytes(budget.physicalBytes)} of physical memory less ${formatBinaryBytes(budget.reserveBytes)} kept in reserve${arenas}`;
}
