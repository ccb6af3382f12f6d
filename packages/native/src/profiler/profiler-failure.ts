import { DriverError } from '../errors/driver-error.js';
import { nativeMessage } from '../errors/native-message.js';
import { UnsupportedError } from '../errors/unsupported-error.js';
import type { NativeFailure } from '../addon/native-binding.js';

const component = 'profiler';
const installFix = "Install CUPTI (the CUDA toolkit's extras/CUPTI, CUDA 13.0 or newer), or set KREPLAY_CUPTI_LIBRARY_DIR to the folder holding libcupti.so, libnvperf_host.so and libnvperf_target.so";

/**
 * The error of a failed CUPTI call: UnsupportedError where CUPTI cannot be loaded, else a
 * DriverError with CUPTI's code and what to do about it.
 * @internal
 */
export function profilerFailure(failure: NativeFailure, driver: 'cuda' | 'host' | 'hsa', agentId: number | null, what: string): Error {
  if (failure.code === 'cupti-unavailable') {
    return new UnsupportedError({ packageName: 'native', component, driver, feature: 'counters', message: nativeMessage(component, `CUPTI is not available: ${failure.message}`, installFix) });
  }
  const fix =
    failure.code === 'CUPTI_ERROR_INVALID_METRIC_NAME'
      ? 'Check the name (ncu --query-metrics lists them) and its rollup suffix (.sum, .avg.pct_of_peak_sustained_elapsed, ...)'
      : failure.code === 'CUPTI_ERROR_INSUFFICIENT_PRIVILEGES'
        ? 'Run as root, or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0'
        : failure.code === 'CUPTI_ERROR_INVALID_CHIP_NAME'
          ? 'Check the chip name: CUPTI spells them as GH100, GB100, AD102; this CUPTI may be older than the chip'
          : 'Check that no other profiler (ncu, nsys) holds the device and that CUPTI matches the driver';
  return new DriverError({ packageName: 'native', component, driver, agentId, operation: what, code: failure.code, message: nativeMessage(component, `${what} failed with ${failure.code}: ${failure.message}`, fix) });
}
