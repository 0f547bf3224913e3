// Histogram bucket layouts as Go's Prometheus client builds them, so our histograms have the same
// `le` boundaries as CometBFT v0.34's and dashboards built for it keep working.

/** Go's DefBuckets (also prom-client's default). */
export const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Go's ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0, b = start; i < count; i++, b *= factor) out.push(b);
  return out;
}

/** Go's ExponentialBucketsRange(min, max, count): `count` buckets from min to max, evenly spaced in log. */
export function exponentialBucketsRange(min: number, max: number, count: number): number[] {
  const factor = (max / min) ** (1 / (count - 1));
  return Array.from({ length: count }, (_, i) => min * factor ** i);
}

/** Go's LinearBuckets(start, width, count). */
export function linearBuckets(start: number, width: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start + i * width);
}
