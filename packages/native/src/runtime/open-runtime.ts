import { availableParallelism } from 'node:os';
import { DriverError } from '../errors/driver-error.js';
import { DriverUnavailableError } from '../errors/driver-unavailable-error.js';
import { KreplayError } from '../errors/kreplay-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { loadBinding } from '../addon/load-binding.js';
import type { NativeRuntime, NativeUnavailable } from '../addon/native-binding.js';
import { checkHostArenas, hostArenaRefusal, physicalMemoryBytes } from '../memory/host-memory-limit.js';
import { RuntimeHandle } from './runtime.js';
import type { Runtime } from './runtime-objects.js';
import { RuntimeCore } from './runtime-core.js';
import type { DriverChoice, OpenRuntimeOptions } from './runtime-types.js';
import { requireReservations, reserveRanges, type ResolvedReservation } from '../memory/reserve-addresses.js';
import { argumentError, requireByteCount, requireChoice, requireInteger, requireKnownKeys, requireObject } from '../errors/validate.js';

const component = 'runtime';
const driverChoices: readonly DriverChoice[] = ['auto', 'cuda', 'hsa', 'host'];

/** The most address space the host driver reserves in all (64 TiB; x86-64 user space is 128 TiB). */
const MAXIMUM_HOST_RESERVATION = 2 ** 46;

interface ResolvedOptions {
  /** Undefined: the driver's default. */
  readonly waitSpinMicroseconds: number | undefined;
  readonly driver: DriverChoice;
  readonly agents: number;
  readonly deviceMemoryBytes: number;
  readonly hostBytesLimit: number | undefined;
  readonly threads: number;
  readonly reserveAddresses: readonly ResolvedReservation[];
}

function resolveOptions(options: unknown): ResolvedOptions {
  const given = requireObject(component, 'options', options ?? {});
  requireKnownKeys(component, 'options', given, ['driver', 'host', 'waitSpinMicroseconds', 'reserveAddresses']);
  const waitSpinMicroseconds = given['waitSpinMicroseconds'] === undefined ? undefined : requireInteger(component, 'options.waitSpinMicroseconds', given['waitSpinMicroseconds'], 0, 1_000_000);
  const driver = requireChoice(component, 'options.driver', given['driver'] ?? 'auto', driverChoices);
  const host = requireObject(component, 'options.host', given['host'] ?? {});
  requireKnownKeys(component, 'options.host', host, ['agents', 'deviceMemoryBytes', 'hostBytesLimit', 'threads']);
  const agents = requireInteger(component, 'options.host.agents', host['agents'] ?? 1, 1, 64);
  const deviceMemoryBytes = requireInteger(component, 'options.host.deviceMemoryBytes', host['deviceMemoryBytes'] ?? 2 ** 30, 4096, Number.MAX_SAFE_INTEGER);
  if (agents * deviceMemoryBytes > MAXIMUM_HOST_RESERVATION) {
    throw argumentError(
      component,
      'options.host.deviceMemoryBytes',
      `${agents} agents of ${deviceMemoryBytes} bytes reserve more than 2^46 bytes of address space`,
      'Emulate fewer or smaller agents',
    );
  }
  const hostBytesLimit = host['hostBytesLimit'] === undefined ? undefined : requireByteCount(component, 'options.host.hostBytesLimit', host['hostBytesLimit'], false);
  const threads = requireInteger(component, 'options.host.threads', host['threads'] ?? availableParallelism(), 1, 1024);
  const reserveAddresses = requireReservations(driver, given['reserveAddresses']);
  return { driver, agents, deviceMemoryBytes, hostBytesLimit, threads, waitSpinMicroseconds, reserveAddresses };
}

function isUnavailable(result: NativeRuntime | NativeUnavailable): result is NativeUnavailable {
  return 'unavailable' in result;
}

/**
 * Opens a driver: `auto` (default) = cuda if a CUDA device is found, else hsa if an HSA GPU agent
 * is, else host. The `host` options apply to the host driver only. `reserveAddresses` (cuda) reserves
 * address ranges before the driver initializes (see {@link OpenRuntimeOptions.reserveAddresses}).
 * @throws {ArgumentError} (as a rejection) for an unknown driver name or invalid options, and on the
 * host driver for arenas this machine cannot hold: agents x deviceMemoryBytes must fit physical memory
 * minus a reserve of max(1 GiB, 10%), and `host.hostBytesLimit` when given; and for a reserved range
 * that something in the process holds already (the message names the /proc/self/maps lines).
 * @throws {UnsupportedError} (as a rejection) for `reserveAddresses` with the host or hsa driver.
 * @throws {DriverUnavailableError} (as a rejection) when the chosen driver cannot run here; its reason names the cause.
 * @throws {KreplayError} (as a rejection) when the native addon cannot be loaded (the message lists every cause and fix).
 * @throws {DriverError} (as a rejection) when an available driver fails to open.
 */
export async function openRuntime(options?: OpenRuntimeOptions): Promise<Runtime> {
  const resolved = resolveOptions(options);
  const arenas = { agents: resolved.agents, deviceMemoryBytes: resolved.deviceMemoryBytes, physicalBytes: physicalMemoryBytes(), hostBytesLimit: resolved.hostBytesLimit };
  if (resolved.driver === 'host') checkHostArenas(arenas);
  const binding = loadBinding();
  // Before the driver library is loaded: nothing of it may sit in the ranges yet.
  reserveRanges(binding, resolved.reserveAddresses);
  let opened: NativeRuntime | NativeUnavailable;
  try {
    opened = await binding.openRuntime(resolved.driver, resolved.agents, resolved.deviceMemoryBytes, resolved.threads);
  } catch (error) {
    if (error instanceof KreplayError) throw error;
    throw new DriverError({
      packageName: 'native',
      component,
      driver: resolved.driver === 'auto' ? 'host' : resolved.driver,
      agentId: null,
      operation: 'open',
      code: 'open-failed',
      cause: error,
      message: nativeMessage(component, `the ${resolved.driver} driver failed to open: ${(error as Error).message}`, 'Use less device memory or fewer agents, or check the driver installation'),
    });
  }
  if (isUnavailable(opened)) {
    const { driver, reason, fix } = opened.unavailable;
    throw new DriverUnavailableError({
      packageName: 'native',
      component,
      driver,
      reason,
      message: nativeMessage(component, `the ${driver} driver is not available: ${reason}`, fix),
    });
  }
  const description = opened.describe();
  // `auto` learns that it fell back to the host driver only now; its arenas are reserved, not yet
  // backed by memory, so closing it again before anything is allocated costs nothing.
  const refusal = description.driver === 'host' && resolved.driver === 'auto' ? hostArenaRefusal(arenas) : null;
  if (refusal) {
    await opened.dispose();
    throw refusal;
  }
  const core = new RuntimeCore(opened, description.driver, description.agents.length, description.userKernels, description.checkpoints, description.profiler);
  core.waitSpinMicroseconds = resolved.waitSpinMicroseconds ?? (description.driver === 'host' ? 0 : 2000);
  core.fixedAddresses = description.fixedAddresses;
  core.graphs = description.graphs === true;
  return new RuntimeHandle(core, binding.version, description.version, description.agents);
}
