/** Small statistics for benchmark samples: medians of runs, spreads and ratios. */

/** The median of `values` (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The smallest and largest of `values`. */
export function range(values: readonly number[]): [number, number] {
  return [Math.min(...values), Math.max(...values)];
}

/** `ours / other`, formatted `0.52×`; `n/a` when either side is missing. */
export function ratio(ours: number | undefined, other: number | undefined): string {
  if (ours === undefined || other === undefined || !Number.isFinite(ours) || !Number.isFinite(other) || other === 0) {
    return 'n/a';
  }
  const value = ours / other;
  return `${value >= 10 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3)}×`;
}

/** A number with a fixed count of decimals and thousands separators. */
export function fmt(value: number | undefined, decimals = 0): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Bytes as KiB with one decimal (bundle sizes). */
export function kib(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Bytes as MiB with one decimal (heap sizes). */
export function mib(bytes: number | undefined): string {
  return bytes === undefined || !Number.isFinite(bytes) ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)}`;
}
