import { benchArgumentError } from './argument-error.js';

/** An ordinary least-squares line `y = intercept + slope * x`, with the fit's error. */
export interface LineFit {
  readonly intercept: number;
  readonly slope: number;
  /** Standard error of the intercept; `null` with two points or fewer (no residual degrees of freedom). */
  readonly interceptStandardError: number | null;
  /** Standard error of the slope; `null` with two points or fewer. */
  readonly slopeStandardError: number | null;
  /** Coefficient of determination: 1 - SSE / SST (1 when every y is equal and fitted exactly). */
  readonly rSquared: number;
  /** How many points were fitted. */
  readonly points: number;
}

/**
 * Fits `y = intercept + slope * x` by ordinary least squares. The standard errors assume
 * independent errors of equal variance, estimated from the residuals with n - 2 degrees of freedom.
 * @throws ArgumentError when the arrays differ in length, hold a non-finite value, or x has fewer
 * than two distinct values.
 */
export function fitLine(x: readonly number[], y: readonly number[]): LineFit {
  if (x.length !== y.length || ![...x, ...y].every(Number.isFinite)) {
    throw benchArgumentError('fit', 'points', `x and y must be finite numbers of equal length, got ${x.length} and ${y.length}`, 'Pass one y per x');
  }
  const n = x.length;
  const meanX = x.reduce((sum, value) => sum + value, 0) / n;
  const meanY = y.reduce((sum, value) => sum + value, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let index = 0; index < n; index += 1) {
    const dx = x[index]! - meanX;
    const dy = y[index]! - meanY;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0)) {
    throw benchArgumentError('fit', 'x', `x needs at least two distinct values, got ${n} point(s)`, 'Sweep at least two pass counts');
  }
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  let sse = 0;
  for (let index = 0; index < n; index += 1) sse += (y[index]! - intercept - slope * x[index]!) ** 2;
  const variance = n > 2 ? sse / (n - 2) : null;
  return {
    intercept,
    slope,
    interceptStandardError: variance === null ? null : Math.sqrt(variance * (1 / n + (meanX * meanX) / sxx)),
    slopeStandardError: variance === null ? null : Math.sqrt(variance / sxx),
    rSquared: syy > 0 ? Math.max(0, 1 - sse / syy) : sse === 0 ? 1 : 0,
    points: n,
  };
}
