import type { SqlClient } from "./sql-client.js";
import { sqlNullableNumber, sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

import { usageLatencyBucketBoundsMs } from "./usage-hourly-rollups.js";

export { usageLatencyBucketBoundsMs };

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

/**
 * The time bucket a row is grouped by. SQLite keeps Prisma's ISO-8601 text ("2026-03-01T10:00:00.000+00:00"):
 * a prefix of it. PostgreSQL keeps a UTC `timestamp(3)`: truncated here and printed once per
 * bucket by {@link bucketLabel} (formatting every row of a 30-day range cost more than summing it).
 */
function bucketExpression(provider: SqlClient["provider"], interval: UsageSeriesInterval, column: string): string {
  if (provider === "sqlite") return interval === "hour" ? `substr(${column}, 1, 13)` : `substr(${column}, 1, 10)`;
  return `date_trunc('${interval}', ${column})`;
}

/** The bucket's label (`YYYY-MM-DDTHH` or `YYYY-MM-DD`) from {@link bucketExpression}'s value. */
function bucketLabel(provider: SqlClient["provider"], interval: UsageSeriesInterval, column: string): string {
  if (provider === "sqlite") return column;
  return interval === "hour" ? `to_char(${column}, 'YYYY-MM-DD"T"HH24')` : `to_char(${column}, 'YYYY-MM-DD')`;
}

/** The group key over raw events. */
function eventGroupExpression(groupBy: UsageSeriesGroupBy): string {
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

/** The group key over hourly rollups ("" already stands for none there). */
function rollupGroupExpression(groupBy: UsageSeriesGroupBy): string {
  switch (groupBy) {
    case "none":
      return "''";
    case "model":
      return "model";
    case "api_key":
      return "api_key_id";
    case "project":
      return "project_id";
    case "client_label":
      return "client_label";
  }
}

/**
 * The coarsest hourly rollup that answers a series: a whole organization's calls, in one series or
 * per model, come from `usage_organization_hourly_rollups` (one row per hour and model); a project
 * or key filter, or a series per key, project or client label, needs `usage_hourly_rollups`.
 */
function rollupTableOf(options: ListUsageSeriesOptions): "usage_organization_hourly_rollups" | "usage_hourly_rollups" {
  const wholeOrganization = options.projectId === undefined && options.apiKeyId === undefined;
  return wholeOrganization && (options.groupBy === "none" || options.groupBy === "model") ? "usage_organization_hourly_rollups" : "usage_hourly_rollups";
}

const HOUR_MS = 3_600_000;
const histogramSize = usageLatencyBucketBoundsMs.length + 1;

/**
 * Usage over time: per UTC hour or day and per group, the call and error counts, tokens, cost and
 * latency (total, maximum and a fixed histogram, from which callers estimate percentiles). Whole
 * hours come from the coarsest hourly rollup that answers the query (both written with every
 * usage batch): the organization rollups (hour x model) for a whole organization's series in one
 * series or per model, else `usage_hourly_rollups` (hour x project x key x model x client label);
 * only the partial hours at either end of the range are summed from raw events, so a 30-day
 * series of an organization reads ~720 rows per model instead of every event or every key's rows. One SQL statement on
 * both dialects; rows are ordered by bucket, then key.
 */
export async function listUsageSeries(db: SqlClient, options: ListUsageSeriesOptions): Promise<UsageSeriesRow[]> {
  const args: unknown[] = [];
  const add = (value: unknown) => {
    args.push(value);
    return sqlPlaceholder(db.provider, args.length);
  };
  const filters = (column: (name: string) => string) => {
    const conditions = [`${column("organization_id")} = ${add(options.organizationId)}`];
    if (options.projectId !== undefined) conditions.push(`${column("project_id")} = ${add(options.projectId)}`);
    if (options.apiKeyId !== undefined) conditions.push(`${column("api_key_id")} = ${add(options.apiKeyId)}`);
    return conditions;
  };
  const fromMs = options.from.getTime();
  const toMs = options.to.getTime();
  const firstWholeHour = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  const lastWholeHourEnd = Math.floor(toMs / HOUR_MS) * HOUR_MS;
  const useRollups = firstWholeHour < lastWholeHourEnd;
  // Raw-event ranges: the whole range when it spans no whole hour, else the partial hours at each end.
  const rawRanges: [number, number][] = useRollups
    ? ([[fromMs, firstWholeHour], [lastWholeHourEnd, toMs]] as [number, number][]).filter(([start, end]) => start < end)
    : [[fromMs, toMs]];

  const parts: string[] = [];
  if (rawRanges.length > 0) {
    const conditions = filters((name) => name);
    const ranges = rawRanges.map(([start, end]) => `(occurred_at >= ${add(sqlTimestamp(db.provider, new Date(start)))} AND occurred_at < ${add(sqlTimestamp(db.provider, new Date(end)))})`);
    let previous = -1;
    const histogram = usageLatencyBucketBoundsMs.map((bound, index) => {
      const column = `SUM(CASE WHEN latency_ms > ${previous} AND latency_ms <= ${bound} THEN 1 ELSE 0 END) AS latency_le_${index}`;
      previous = bound;
      return column;
    });
    histogram.push(`SUM(CASE WHEN latency_ms > ${previous} THEN 1 ELSE 0 END) AS latency_le_${usageLatencyBucketBoundsMs.length}`);
    parts.push(`SELECT ${bucketExpression(db.provider, options.interval, "occurred_at")} AS bucket, ${eventGroupExpression(options.groupBy)} AS group_key,
      COUNT(*) AS request_count, SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS error_count,
      SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
      SUM(cache_read_tokens) AS cache_read_tokens, SUM(cache_write_tokens) AS cache_write_tokens, SUM(cost_micros) AS cost_micros,
      SUM(latency_ms) AS latency_total, MAX(latency_ms) AS latency_max,
      SUM(time_to_first_byte_ms) AS ttfb_total, COUNT(time_to_first_byte_ms) AS ttfb_count,
      ${histogram.join(", ")}
      FROM usage_events WHERE ${conditions.join(" AND ")} AND (${ranges.join(" OR ")})
      GROUP BY 1, 2`);
  }
  if (useRollups) {
    const conditions = filters((name) => name);
    const table = rollupTableOf(options);
    conditions.push(`hour >= ${add(sqlTimestamp(db.provider, new Date(firstWholeHour)))}`, `hour < ${add(sqlTimestamp(db.provider, new Date(lastWholeHourEnd)))}`);
    const histogram = Array.from({ length: histogramSize }, (_, index) => `SUM(latency_bucket_${index}) AS latency_le_${index}`);
    parts.push(`SELECT ${bucketExpression(db.provider, options.interval, "hour")} AS bucket, ${rollupGroupExpression(options.groupBy)} AS group_key,
      SUM(request_count) AS request_count, SUM(error_count) AS error_count,
      SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
      SUM(cache_read_tokens) AS cache_read_tokens, SUM(cache_write_tokens) AS cache_write_tokens, SUM(cost_micros) AS cost_micros,
      SUM(latency_ms_sum) AS latency_total, MAX(latency_ms_max) AS latency_max,
      SUM(time_to_first_byte_ms_sum) AS ttfb_total, SUM(time_to_first_byte_count) AS ttfb_count,
      ${histogram.join(", ")}
      FROM ${table} WHERE ${conditions.join(" AND ")}
      GROUP BY 1, 2`);
  }
  const outerHistogram = Array.from({ length: histogramSize }, (_, index) => `SUM(latency_le_${index}) AS latency_le_${index}`);
  const sql = `SELECT ${bucketLabel(db.provider, options.interval, "bucket")} AS bucket, group_key, SUM(request_count) AS request_count, SUM(error_count) AS error_count,
    SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(cache_read_tokens) AS cache_read_tokens,
    SUM(cache_write_tokens) AS cache_write_tokens, SUM(cost_micros) AS cost_micros, SUM(latency_total) AS latency_total,
    MAX(latency_max) AS latency_max, SUM(ttfb_total) AS ttfb_total, SUM(ttfb_count) AS ttfb_count, ${outerHistogram.join(", ")}
    FROM (${parts.join("\n    UNION ALL\n    ")}) AS parts
    GROUP BY bucket, group_key ORDER BY bucket, group_key`;
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
    latencyHistogram: Array.from({ length: histogramSize }, (_, index) => sqlNumber(row[`latency_le_${index}`] ?? 0)),
    timeToFirstByteMsTotal: sqlNumber(row.ttfb_total ?? 0),
    timeToFirstByteCount: sqlNumber(row.ttfb_count ?? 0),
  }));
}
