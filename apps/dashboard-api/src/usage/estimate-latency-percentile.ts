/** Input of {@link estimateLatencyPercentile}. */
export interface LatencyHistogram {
  /** Upper bounds (inclusive, ms) of all buckets but the last. */
  boundsMs: readonly number[];
  /** Calls per bucket: one more entry than `boundsMs` (the last counts everything slower). */
  counts: readonly number[];
  /** The slowest call (caps the estimate, and answers for the overflow bucket). */
  maxMs: number;
}

/**
 * Estimates a latency percentile from a fixed histogram: the upper bound of the bucket holding
 * the call of rank `ceil(quantile * calls)`, never above the slowest call. An upper estimate by
 * at most one bucket width. Null without calls.
 */
export function estimateLatencyPercentile(histogram: LatencyHistogram, quantile: number): number | null {
  const total = histogram.counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(quantile * total));
  let seen = 0;
  for (let index = 0; index < histogram.counts.length; index += 1) {
    seen += histogram.counts[index]!;
    if (seen >= rank) {
      const bound = histogram.boundsMs[index];
      return bound === undefined ? histogram.maxMs : Math.min(bound, histogram.maxMs);
    }
  }
  return histogram.maxMs;
}
