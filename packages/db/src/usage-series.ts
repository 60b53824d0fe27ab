import type { SqlClient } from "./sql-client.js";
import { sqlNullableNumber, sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** Upper bounds (inclusive, ms) of the latency histogram buckets of {@link listUsageSeries}; a last bucket holds everything slower. */
export const usageLatencyBucketBoundsMs: readonly number[] = [50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10_000, 20_000, 30_000, 60_000];

/** The time bucket of a series point: UTC hour or UTC day. */
export type UsageSeriesInterval = "hour" | "day";

/** What one series is per: nothing (one series), the served model, the API key, the project or the client label. */
export type UsageSeriesGroupBy = "none" | "model" | "api_key" | "project" | "client_label";

/** Options of {@link listUsageSeries}. */
export interface ListUsageSeriesOptions {
  organizationId: string;
  /** Inclusive lower bound of `occurredAt`. */
  from: Date;
  /** Exclusive upper bound of `occurredAt`. */
  to: Date;
  interval: UsageSeriesInterval;
  groupBy: UsageSeriesGroupBy;
  projectId?: string;
  apiKeyId?: string;
}

/** Totals of one (time bucket, group key). */
export interface UsageSeriesRow {
  /** `YYYY-MM-DDTHH` (hour) or `YYYY-MM-DD` (day), UTC. */
  bucket: string;
  /** The group's value (`<provider>/<model>` for models); "" when unknown or when not grouped. */
  key: string;
  requestCount: number;
  /** Calls answered with a status >= 400. */
  errorCount: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costMicros: number;
  /** Sum of `latencyMs` (divide by `requestCount` for the mean). */
  latencyMsTotal: number;
  latencyMsMax: number;
  /** Calls per latency bucket: index i counts latencies <= `usageLatencyBucketBoundsMs[i]` and above the previous bound; the last entry counts the rest. */
  latencyHistogram: number[];
  /** Sum of `timeToFirstByteMs` over the calls that have one, and their count. */
  timeToFirstByteMsTotal: number;
  timeToFirstByteCount: number;
}

function bucketExpression(provider: SqlClient["provider"], interval: UsageSeriesInterval): string {
  // SQLite keeps Prisma's ISO-8601 text ("2026-03-01T10:00:00.000+00:00"); PostgreSQL a UTC `timestamp(3)`.
  if (provider === "sqlite") return interval === "hour" ? "substr(occurred_at, 1, 13)" : "substr(occurred_at, 1, 10)";
  return interval === "hour" ? `to_char(occurred_at, 'YYYY-MM-DD"T"HH24')` : `to_char(occurred_at, 'YYYY-MM-DD')`;
}

function groupExpression(groupBy: UsageSeriesGroupBy): string {
  switch (groupBy) {
    case "none":
      return "''";
    case "model":
      // The rollups' model key: `<provider>/<model>`, else the model or the requested model.
      return "CASE WHEN provider IS NOT NULL AND model IS NOT NULL THEN provider || '/' || model ELSE COALESCE(model, requested_model, '') END";
    case "api_key":
      return "COALESCE(api_key_id, '')";
    case "project":
      return "COALESCE(project_id, '')";
    case "client_label":
      return "COALESCE(client_label, '')";
  }
}

/**
 * Usage over time from the usage events (not the daily rollups, which keep neither client labels
 * nor latencies): per UTC hour or day and per group, the call and error counts, tokens, cost and
 * latency (total, maximum and a fixed histogram, from which callers estimate percentiles).
 * Aggregated in SQL on both dialects; rows are ordered by bucket, then key.
 */
export async function listUsageSeries(db: SqlClient, options: ListUsageSeriesOptions): Promise<UsageSeriesRow[]> {
  const args: unknown[] = [options.organizationId, sqlTimestamp(db.provider, options.from), sqlTimestamp(db.provider, options.to)];
  const conditions = [`organization_id = ${sqlPlaceholder(db.provider, 1)}`, `occurred_at >= ${sqlPlaceholder(db.provider, 2)}`, `occurred_at < ${sqlPlaceholder(db.provider, 3)}`];
  if (options.projectId !== undefined) {
    args.push(options.projectId);
    conditions.push(`project_id = ${sqlPlaceholder(db.provider, args.length)}`);
  }
  if (options.apiKeyId !== undefined) {
    args.push(options.apiKeyId);
    conditions.push(`api_key_id = ${sqlPlaceholder(db.provider, args.length)}`);
  }
  let previous = -1;
  const histogramColumns = usageLatencyBucketBoundsMs.map((bound, index) => {
    const column = `SUM(CASE WHEN latency_ms > ${previous} AND latency_ms <= ${bound} THEN 1 ELSE 0 END) AS latency_le_${index}`;
    previous = bound;
    return column;
  });
  histogramColumns.push(`SUM(CASE WHEN latency_ms > ${previous} THEN 1 ELSE 0 END) AS latency_le_${usageLatencyBucketBoundsMs.length}`);
  const sql = `SELECT ${bucketExpression(db.provider, options.interval)} AS bucket, ${groupExpression(options.groupBy)} AS group_key,
    COUNT(*) AS request_count,
    SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS error_count,
    SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
    SUM(cache_read_tokens) AS cache_read_tokens, SUM(cache_write_tokens) AS cache_write_tokens,
    SUM(cost_micros) AS cost_micros,
    SUM(latency_ms) AS latency_total, MAX(latency_ms) AS latency_max,
    SUM(time_to_first_byte_ms) AS ttfb_total, COUNT(time_to_first_byte_ms) AS ttfb_count,
    ${histogramColumns.join(",\n    ")}
    FROM usage_events WHERE ${conditions.join(" AND ")}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  const rows = await db.queryStatement({ sql, args });
  return rows.map((row) => ({
    bucket: String(row.bucket),
    key: String(row.group_key ?? ""),
    requestCount: sqlNumber(row.request_count),
    errorCount: sqlNumber(row.error_count ?? 0),
    inputTokens: sqlNumber(row.input_tokens ?? 0),
    outputTokens: sqlNumber(row.output_tokens ?? 0),
    cacheReadTokens: sqlNumber(row.cache_read_tokens ?? 0),
    cacheWriteTokens: sqlNumber(row.cache_write_tokens ?? 0),
    costMicros: sqlNumber(row.cost_micros ?? 0),
    latencyMsTotal: sqlNumber(row.latency_total ?? 0),
    latencyMsMax: sqlNullableNumber(row.latency_max) ?? 0,
    latencyHistogram: Array.from({ length: usageLatencyBucketBoundsMs.length + 1 }, (_, index) => sqlNumber(row[`latency_le_${index}`] ?? 0)),
    timeToFirstByteMsTotal: sqlNumber(row.ttfb_total ?? 0),
    timeToFirstByteCount: sqlNumber(row.ttfb_count ?? 0),
  }));
}
