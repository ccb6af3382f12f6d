/** What an RSS sampler saw. */
export interface RssMeasurement {
  /** Resident set when sampling began. */
  readonly baselineBytes: number;
  /** The largest resident set sampled. */
  readonly peakBytes: number;
  readonly samples: number;
}

/** Samples the process's resident set on an interval until stopped. */
export interface RssSampler {
  stop(): RssMeasurement;
}

/**
 * Starts sampling `process.memoryUsage.rss()` every `intervalMilliseconds` (and once at start and
 * stop). The timer runs while the JS thread waits for native work, so it sees the replay's peak
 * to within the interval; it does not keep the process alive.
 */
export function startRssSampler(intervalMilliseconds: number): RssSampler {
  const baselineBytes = process.memoryUsage.rss();
  let peakBytes = baselineBytes;
  let samples = 1;
  const sample = () => {
    peakBytes = Math.max(peakBytes, process.memoryUsage.rss());
    samples += 1;
  };
  const timer = setInterval(sample, intervalMilliseconds);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { baselineBytes, peakBytes, samples };
    },
  };
}
