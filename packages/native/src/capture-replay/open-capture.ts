import { readCaptureFolder } from '../capture/capture-folder.js';
import type { CaptureFolder } from '../capture/capture-folder-types.js';
import { openRuntime } from '../runtime/open-runtime.js';
import { RuntimeHandle } from '../runtime/runtime.js';
import type { Runtime } from '../runtime/runtime-objects.js';
import { ArgumentError } from '../errors/argument-error.js';
import { argumentError, describeValue, requireChoice, requireInteger, requireKnownKeys, requireObject } from '../errors/validate.js';
import { captureReservations } from './capture-regions.js';
import { CaptureReplay, type CaptureAddressPolicy } from './capture-replay.js';

const placements: readonly CaptureAddressPolicy[] = ['exact', 'exact-or-relocate', 'relocate'];

/** Options of {@link openCapture}. */
export interface OpenCaptureOptions {
  /**
   * A runtime the caller opened (for example with `reserveAddresses: captureReservations(...)`); it
   * stays the caller's. Absent: openCapture opens the cuda driver with the capture's ranges reserved
   * before the driver starts, and the replay disposes it.
   */
  readonly runtime?: Runtime;
  /** The agent to replay on. Default 0. */
  readonly agentId?: number;
  /** Check every blob's SHA-256 when reading the folder (see readCaptureFolder). Default true. */
  readonly verifyBlobs?: boolean;
  /** Where captured memory goes (see {@link CaptureAddressPolicy}). Default `exact-or-relocate`. */
  readonly placement?: CaptureAddressPolicy;
  /** Passed to openRuntime when openCapture opens the runtime. */
  readonly waitSpinMicroseconds?: number;
}

/**
 * Opens a capture folder (written by `kreplay capture`) for replay: reads it, reserves the captured
 * address ranges before the driver creates its context and opens the cuda driver (unless
 * `options.runtime` is given), and returns a {@link CaptureReplay} whose `prepare(launch)` makes a
 * launch's memory as it was before the program's launch and returns its dispatch.
 * @param folder the folder, or what readCaptureFolder read from it.
 * @throws {ArgumentError} (as a rejection) for bad options, or a captured range that cannot be reserved (naming what holds it).
 * @throws {CaptureFormatError} (as a rejection) when the folder is not a readable capture.
 * @throws {DriverUnavailableError} (as a rejection) when the cuda driver is not there.
 * @throws {UnsupportedError} (as a rejection) when the given runtime's driver cannot map memory at fixed addresses.
 */
export async function openCapture(folder: string | CaptureFolder, options: OpenCaptureOptions = {}): Promise<CaptureReplay> {
  const given = requireObject('capture', 'options', options);
  requireKnownKeys('capture', 'options', given, ['runtime', 'agentId', 'verifyBlobs', 'placement', 'waitSpinMicroseconds']);
  const placement = options.placement === undefined ? 'exact-or-relocate' : requireChoice('capture', 'options.placement', options.placement, placements);
  if (options.runtime !== undefined && !(options.runtime instanceof RuntimeHandle)) {
    throw argumentError('capture', 'options.runtime', `options.runtime is ${describeValue(options.runtime)}, not a Runtime`, 'Pass a runtime from openRuntime, or leave it out');
  }
  const capture =
    typeof folder === 'string' ? await readCaptureFolder(folder, { verifyBlobs: options.verifyBlobs ?? true }) : requireFolder(folder);
  let reservations = options.runtime === undefined && placement !== 'relocate' ? captureReservations(capture.launches) : [];
  const open = () =>
    openRuntime({
      driver: 'cuda',
      reserveAddresses: reservations,
      ...(options.waitSpinMicroseconds === undefined ? {} : { waitSpinMicroseconds: options.waitSpinMicroseconds }),
    });
  let runtime: Runtime | undefined = options.runtime;
  if (runtime === undefined) {
    try {
      runtime = await open();
    } catch (error) {
      // A range this process already holds: with relocation allowed, open without the reservations.
      if (placement === 'exact' || !(error instanceof ArgumentError) || reservations.length === 0) throw error;
      reservations = [];
      runtime = await open();
    }
  }
  try {
    const agentId = requireInteger('capture', 'options.agentId', options.agentId ?? 0, 0, runtime.agents.length - 1);
    return new CaptureReplay(capture, runtime, runtime.agents[agentId]!, reservations, options.runtime === undefined, placement);
  } catch (error) {
    if (options.runtime === undefined) await runtime.dispose();
    throw error;
  }
}

function requireFolder(folder: CaptureFolder): CaptureFolder {
  if (typeof folder !== 'object' || folder === null || !Array.isArray(folder.launches) || typeof folder.directory !== 'string') {
    throw argumentError('capture', 'folder', `folder is ${describeValue(folder)}, not a capture folder`, 'Pass the folder path, or what readCaptureFolder returned');
  }
  return folder;
}
