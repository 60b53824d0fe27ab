/** One usage total of a time bucket and group (from the series or the daily rollups). */
export interface UsagePoint {
  /** Bucket start, ISO 8601 (hour or day). */
  bucket: string;
  /** Group key (model, key id, project id, client label); "" when unknown. */
  key: string;
  requests: number;
  errors: number;
  tokens: number;
  costMicros: number;
}

/** What a chart plots. */
export type UsageMetric = "costMicros" | "tokens" | "requests";

/** Chart rows: one per bucket, one numeric column per shown group. */
export interface PivotedUsage {
  rows: ({ bucket: string } & Record<string, number | string>)[];
  /** The shown groups, largest total first ("other" last when groups were folded). */
  keys: string[];
  totals: Record<string, number>;
}

/** The group that collects everything beyond the largest groups. */
export const otherGroupKey = "__other__";

/** Every bucket start from `from` (inclusive) to `to` (exclusive), so quiet hours or days show as zero. */
export function listBuckets(from: Date, to: Date, interval: "hour" | "day"): string[] {
  const step = interval === "hour" ? 3_600_000 : 86_400_000;
  const start = Math.floor(from.getTime() / step) * step;
  const buckets: string[] = [];
  for (let time = start; time < to.getTime(); time += step) buckets.push(new Date(time).toISOString());
  return buckets;
}

/**
 * Pivots usage points into chart rows for one metric: the `limit` largest groups get their own
 * column, the rest fold into {@link otherGroupKey}; buckets without points are zero.
 */
export function pivotUsage(points: readonly UsagePoint[], options: { metric: UsageMetric; buckets: readonly string[]; limit?: number }): PivotedUsage {
  const limit = options.limit ?? 8;
  const totals: Record<string, number> = {};
  for (const point of points) totals[point.key] = (totals[point.key] ?? 0) + point[options.metric];
  const ranked = Object.keys(totals)
    .filter((key) => totals[key]! > 0)
    .sort((left, right) => totals[right]! - totals[left]! || left.localeCompare(right));
  const shown = ranked.length > limit ? ranked.slice(0, limit - 1) : ranked;
  const folded = ranked.length > limit;
  const keys = folded ? [...shown, otherGroupKey] : shown;
  const rows = new Map(options.buckets.map((bucket) => [bucket, Object.fromEntries([["bucket", bucket], ...keys.map((key) => [key, 0])]) as { bucket: string } & Record<string, number | string>]));
  const shownSet = new Set(shown);
  for (const point of points) {
    const bucket = new Date(point.bucket).toISOString();
    let row = rows.get(bucket);
    if (!row) {
      row = Object.fromEntries([["bucket", bucket], ...keys.map((key) => [key, 0])]) as { bucket: string } & Record<string, number | string>;
      rows.set(bucket, row);
    }
    const column = shownSet.has(point.key) ? point.key : folded ? otherGroupKey : null;
    if (column !== null) row[column] = (row[column] as number) + point[options.metric];
  }
  const keyTotals: Record<string, number> = {};
  for (const key of keys) keyTotals[key] = key === otherGroupKey ? ranked.slice(limit - 1).reduce((sum, other) => sum + totals[other]!, 0) : totals[key]!;
  return { rows: [...rows.values()].sort((left, right) => left.bucket.localeCompare(right.bucket)), keys, totals: keyTotals };
}
