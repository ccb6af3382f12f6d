import { DriverUnavailableError } from '../errors/driver-unavailable-error.js';
import { openRuntime } from '../runtime/open-runtime.js';
import type { DriverName } from '../runtime/runtime-types.js';

/**
 * Why `driver` does not open here (DriverUnavailableError's reason, e.g. "libcuda.so.1 was not
 * found"), or null when it opens: for GPU test files to skip cleanly, with the reason. Opens the
 * driver once and disposes it.
 * @throws what openRuntime throws other than DriverUnavailableError.
 */
export async function unavailableDriverReason(driver: DriverName): Promise<string | null> {
  try {
    const runtime = await openRuntime({ driver });
    await runtime.dispose();
    return null;
  } catch (error) {
    if (error instanceof DriverUnavailableError) return error.reason;
    throw error;
  }
}
