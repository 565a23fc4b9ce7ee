/**
 * Paired before/after figures: two variants measured in the same rounds, compared round by round. Intervals are
 * the distribution-free ones of a median (order statistics of a binomial(n, 1/2)), so no shape is assumed.
 */
import { median } from './stats';

/** A median with its interval and the interval's coverage (0.95 where the count allows it). */
export interface MedianInterval {
  median: number;
  low: number;
  high: number;
  /** The interval's actual coverage (order statistics give only some levels: 0.969 for 6 values, 0.979 for 10). */
  coverage: number;
  n: number;
}

/** P(X <= k) for X ~ binomial(n, 1/2). */
function binomialCdf(n: number, k: number): number {
  let term = 0.5 ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

/**
 * The median of `values` and its interval of at least `confidence` (the widest order statistics x(k), x(n-k+1)
 * with P(X <= k-1) <= (1 - confidence) / 2); with too few values (under 6 for 0.95), the full range and its coverage.
 */
export function medianInterval(values: readonly number[], confidence = 0.95): MedianInterval | undefined {
  const n = values.length;
  if (n === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  let k = 1;
  while (k + 1 <= n / 2 && binomialCdf(n, k) <= (1 - confidence) / 2) k++;
  return { median: median(sorted), low: sorted[k - 1]!, high: sorted[n - k]!, coverage: 1 - 2 * binomialCdf(n, k - 1), n };
}

/** One measure of two variants in the same rounds: each variant's median, and the median of the rounds' after / before. */
export interface PairedFigures {
  after: MedianInterval;
  before: MedianInterval;
  /** The rounds' ratios after / before (rounds where both ran without error). */
  ratio: MedianInterval;
}

/** Pairs `after[i]` with `before[i]` (the same round) where both are defined and `before[i]` is above 0. */
export function pairedFigures(after: readonly (number | undefined)[], before: readonly (number | undefined)[]): PairedFigures | undefined {
  const pairs: [number, number][] = [];
  for (let round = 0; round < Math.min(after.length, before.length); round++) {
    const a = after[round];
    const b = before[round];
    if (a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b > 0) pairs.push([a, b]);
  }
  if (pairs.length === 0) return undefined;
  return {
    after: medianInterval(pairs.map(([a]) => a))!,
    before: medianInterval(pairs.map(([, b]) => b))!,
    ratio: medianInterval(pairs.map(([a, b]) => a / b))!,
  };
}

/** e.g. `1.23 (1.10-1.40)`, with `digits` decimals. */
export function describeInterval(figure: MedianInterval, digits = 2): string {
  return `${figure.median.toFixed(digits)} (${figure.low.toFixed(digits)}-${figure.high.toFixed(digits)})`;
}
