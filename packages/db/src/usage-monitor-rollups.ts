import type { UsageEventRecord } from "@gateway/contracts";
import type { DatabaseProvider } from "./database-url.js";
import { type SqlClient, sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";
import { multiRowUpserts } from "./multi-row-upserts.js";
import type { SqlStatement } from "./statement-runner.js";
import { timeOrderedId } from "./time-ordered-id.js";
import { latencyBucketIndex, toInteger, usageLatencyBucketBoundsMs } from "./usage-hourly-rollups.js";

/**
 * The monitors' rollup (`usage_monitor_rollups`): per minute AND per hour, the dimensions a
 * monitor scopes on (organization, project, team, key, served model, connection, client label)
 * and the counts it measures. The hourly rollups have no team, connection or refusal counts and
 * nothing finer than an hour, so a 5-minute window cannot be read from them honestly; this
 * table is written in the same transaction as the events (never double-counted on a retried
 * batch) and kept for a day and a bit (see {@link deleteExpiredMonitorRollups}).
 *
 * A window `[start, end)` is read as its whole hours from the hour rows plus its partial head
 * and tail from the minute rows: at most ~2 hours of minute rows and 24 hour rows per series.
 */

/** The dimension columns, in the order of a group's `key`. */
export const monitorRollupDimensions = ["organization_id", "project_id", "team_id", "api_key_id", "model", "connection_id", "client_label"] as const;

/** A dimension column of the monitors' rollup. */
export type MonitorRollupDimension = (typeof monitorRollupDimensions)[number];

const HISTOGRAM_COLUMNS = Array.from({ length: usageLatencyBucketBoundsMs.length + 1 }, (_, index) => `latency_bucket_${index}`);

/** The summed columns, in the order of {@link MonitorRollupSums.values}. */
export const monitorRollupSummedColumns = [
  "request_count",
  "error_count",
  "tokens",
  "cost_micros",
  "time_to_first_byte_ms_sum",
  "time_to_first_byte_count",
  "guardrail_blocks",
  "rate_limit_refusals",
  "budget_refusals",
  "upstream_failures",
  ...HISTOGRAM_COLUMNS,
] as const;

/** Index of a named summed column in a sums array (the histogram follows at {@link monitorRollupHistogramOffset}). */
export const monitorRollupColumnIndex = {
  request_count: 0,
  error_count: 1,
  tokens: 2,
  cost_micros: 3,
  time_to_first_byte_ms_sum: 4,
  time_to_first_byte_count: 5,
  guardrail_blocks: 6,
  rate_limit_refusals: 7,
  budget_refusals: 8,
  upstream_failures: 9,
} as const;
/** Index of the first latency histogram bucket in a sums array. */
export const monitorRollupHistogramOffset = monitorRollupSummedColumns.length - HISTOGRAM_COLUMNS.length;

const KEY_COLUMNS = ["bucket_minutes", "bucket_start", ...monitorRollupDimensions] as const;
const COLUMNS = ["id", ...KEY_COLUMNS, ...monitorRollupSummedColumns] as const;

const UPSTREAM_FAILURE_CODES = new Set(["upstream_error", "upstream_timeout", "upstream_rate_limited"]);

/** The dimension values of an event ("" for none); the model is the served one (else the requested one), as the activity filters it. */
export function monitorDimensionsOf(event: UsageEventRecord): string[] {
  return [
    event.organizationId ?? "",
    event.projectId ?? "",
    event.teamId ?? "",
    event.apiKeyId ?? "",
    event.model ?? event.requestedModel ?? "",
    event.connectionId ?? "",
    event.clientLabel ?? "",
  ];
}

/** The summed figures of one event, in the order of {@link monitorRollupSummedColumns}. */
function eventSums(event: UsageEventRecord): number[] {
  const sums = new Array<number>(monitorRollupSummedColumns.length).fill(0);
  const code = event.errorCode ?? "";
  sums[0] = 1;
  sums[1] = event.status >= 400 ? 1 : 0;
  sums[2] = toInteger(event.inputTokens) + toInteger(event.outputTokens);
  sums[3] = toInteger(event.costMicros);
  if (event.timeToFirstByteMs !== null && event.timeToFirstByteMs !== undefined) {
    sums[4] = toInteger(event.timeToFirstByteMs);
    sums[5] = 1;
  }
  sums[6] = code === "guardrail_blocked" ? 1 : 0;
  sums[7] = code === "gateway_rate_limit_exceeded" || event.rateLimitOutcome === "limited" ? 1 : 0;
  sums[8] = code.startsWith("hard_budget_") || (event.budgetOutcome ?? "").startsWith("rejected") ? 1 : 0;
  sums[9] = UPSTREAM_FAILURE_CODES.has(code) ? 1 : 0;
  sums[monitorRollupHistogramOffset + latencyBucketIndex(toInteger(event.latencyMs))] = 1;
  return sums;
}

interface MonitorGroup {
  bucketMinutes: number;
  bucketStart: Date;
  key: string[];
  sums: number[];
}

/** Sums events per minute and per hour, per dimension tuple. */
export function aggregateMonitorRollups(events: readonly UsageEventRecord[]): MonitorGroup[] {
  const groups = new Map<string, MonitorGroup>();
  for (const event of events) {
    const key = monitorDimensionsOf(event);
    const sums = eventSums(event);
    for (const bucketMinutes of [1, 60]) {
      const width = bucketMinutes * 60_000;
      const startMs = Math.floor(event.occurredAt.getTime() / width) * width;
      const mapKey = `${bucketMinutes}\u0000${startMs}\u0000${key.join("\u0000")}`;
      let group = groups.get(mapKey);
      if (group === undefined) {
        group = { bucketMinutes, bucketStart: new Date(startMs), key, sums: new Array<number>(sums.length).fill(0) };
        groups.set(mapKey, group);
      }
      for (let index = 0; index < sums.length; index += 1) group.sums[index]! += sums[index]!;
    }
  }
  return [...groups.values()];
}

/** `INSERT ... ON CONFLICT DO UPDATE` statements adding the events to the monitors' rollup (atomic increments). */
export function monitorRollupStatements(provider: DatabaseProvider, events: readonly UsageEventRecord[], chunkSize = provider === "sqlite" ? 20 : 500): SqlStatement[] {
  if (events.length === 0) return [];
  return monitorRollupGroupStatements(provider, aggregateMonitorRollups(events), chunkSize);
}

/** The upserts of already aggregated groups (the bench seeds rollups this way). */
export function monitorRollupGroupStatements(provider: DatabaseProvider, groups: readonly MonitorGroup[], chunkSize = provider === "sqlite" ? 20 : 500): SqlStatement[] {
  const updates = monitorRollupSummedColumns.map((column) => `"${column}" = "usage_monitor_rollups"."${column}" + excluded."${column}"`);
  const asBigint = (value: number) => (provider === "postgresql" ? String(value) : value);
  const rows = groups.map((group) => [timeOrderedId(), group.bucketMinutes, sqlTimestamp(provider, group.bucketStart), ...group.key, ...group.sums.map(asBigint)]);
  return multiRowUpserts(provider, "usage_monitor_rollups", COLUMNS, KEY_COLUMNS, updates, rows, chunkSize);
}

/** Sums of the monitors' rollup over a window for one dimension tuple (the dimensions asked for; others are ""). */
export interface MonitorRollupSums {
  /** The values of the requested dimensions, in the order asked. */
  key: string[];
  /** In the order of {@link monitorRollupSummedColumns}. */
  values: number[];
}

/** The ranges of a window `[start, end)` (minute-aligned) read from hour rows and from minute rows. */
export function monitorWindowRanges(start: Date, end: Date): { hours: [Date, Date] | null; minutes: Array<[Date, Date]> } {
  const hour = 3_600_000;
  const firstHour = Math.ceil(start.getTime() / hour) * hour;
  const lastHour = Math.floor(end.getTime() / hour) * hour;
  if (firstHour >= lastHour) return { hours: null, minutes: [[start, end]] };
  const minutes: Array<[Date, Date]> = [];
  if (start.getTime() < firstHour) minutes.push([start, new Date(firstHour)]);
  if (lastHour < end.getTime()) minutes.push([new Date(lastHour), end]);
  return { hours: [new Date(firstHour), new Date(lastHour)], minutes };
}

/** Options of {@link sumMonitorRollups}. */
export interface SumMonitorRollupsOptions {
  organizationIds: readonly string[];
  start: Date;
  end: Date;
  /** Dimensions to group by (none: one total per organization is NOT implied; add `organization_id`). */
  groupBy: readonly MonitorRollupDimension[];
  /** Only rows whose dimension equals the value. */
  where?: Partial<Record<MonitorRollupDimension, string>>;
  /** Group by the bucket start too (minute rows only; for charts). */
  byMinute?: boolean;
}

/**
 * Sums the monitors' rollup over `[start, end)`, grouped by the given dimensions: one query,
 * hour rows for the whole hours and minute rows for the partial ones.
 */
export async function sumMonitorRollups(db: SqlClient, options: SumMonitorRollupsOptions): Promise<Array<MonitorRollupSums & { bucketStart: Date | null }>> {
  if (options.organizationIds.length === 0) return [];
  const args: unknown[] = [];
  const add = (value: unknown) => {
    args.push(value);
    return sqlPlaceholder(db.provider, args.length);
  };
  const organizations = `"organization_id" IN (${options.organizationIds.map((id) => add(id)).join(", ")})`;
  const filters = Object.entries(options.where ?? {}).map(([column, value]) => `"${column}" = ${add(value)}`);
  const ranges = options.byMinute ? { hours: null, minutes: [[options.start, options.end] as [Date, Date]] } : monitorWindowRanges(options.start, options.end);
  const windows: string[] = [];
  if (ranges.hours) windows.push(`("bucket_minutes" = 60 AND "bucket_start" >= ${add(sqlTimestamp(db.provider, ranges.hours[0]))} AND "bucket_start" < ${add(sqlTimestamp(db.provider, ranges.hours[1]))})`);
  for (const [from, to] of ranges.minutes) {
    windows.push(`("bucket_minutes" = 1 AND "bucket_start" >= ${add(sqlTimestamp(db.provider, from))} AND "bucket_start" < ${add(sqlTimestamp(db.provider, to))})`);
  }
  const groupColumns = [...options.groupBy.map((column) => `"${column}"`), ...(options.byMinute ? [`"bucket_start"`] : [])];
  const select = [...groupColumns, ...monitorRollupSummedColumns.map((column) => `SUM("${column}") AS "${column}"`)];
  const sql =
    `SELECT ${select.join(", ")} FROM "usage_monitor_rollups" WHERE ${[organizations, ...filters, `(${windows.join(" OR ")})`].join(" AND ")}` +
    (groupColumns.length > 0 ? ` GROUP BY ${groupColumns.join(", ")}` : "");
  const rows = await db.queryStatement({ sql, args });
  return rows
    .filter((row) => row.request_count !== null && row.request_count !== undefined)
    .map((row) => ({
      key: options.groupBy.map((column) => String(row[column] ?? "")),
      values: monitorRollupSummedColumns.map((column) => sqlNumber(row[column] ?? 0)),
      bucketStart: options.byMinute ? toDate(row.bucket_start) : null,
    }));
}

/** PostgreSQL settings of the windows' sums (see {@link sumMonitorRollupWindows}). */
const windowSumSettings = { jit: "off", work_mem: "64MB", enable_sort: "off" } as const;

/** Options of {@link sumMonitorRollupWindows}. */
export interface SumMonitorRollupWindowsOptions {
  organizationIds: readonly string[];
  /** The end of every window (minute-aligned). */
  end: Date;
  /** The window lengths in minutes: each window is `[end - minutes, end)`. */
  windowsMinutes: readonly number[];
  /** Dimensions to group by (add `organization_id` for a total per organization). */
  groupBy: readonly MonitorRollupDimension[];
}

/**
 * Sums the monitors' rollup over several windows ending at the same time in ONE query: the
 * ranges of every window (as {@link monitorWindowRanges} splits them) are cut into disjoint
 * segments per grain, the database sums each group per segment, and each window adds up its
 * segments here. The result per window holds exactly what {@link sumMonitorRollups} returns
 * for it (a group appears when it has rows in that window).
 */
export async function sumMonitorRollupWindows(db: SqlClient, options: SumMonitorRollupWindowsOptions): Promise<Map<number, MonitorRollupSums[]>> {
  const result = new Map<number, MonitorRollupSums[]>();
  const windows = [...new Set(options.windowsMinutes)];
  if (options.organizationIds.length === 0 || windows.length === 0) {
    for (const minutes of windows) result.set(minutes, []);
    return result;
  }
  // Per window and grain, the [from, to) ranges (epoch ms) it reads.
  const rangesOf = new Map<number, Array<{ grain: 1 | 60; from: number; to: number }>>();
  const cuts = { 1: new Set<number>(), 60: new Set<number>() };
  for (const minutes of windows) {
    const ranges = monitorWindowRanges(new Date(options.end.getTime() - minutes * 60_000), options.end);
    const list = [
      ...(ranges.hours ? [{ grain: 60 as const, from: ranges.hours[0].getTime(), to: ranges.hours[1].getTime() }] : []),
      ...ranges.minutes.map(([from, to]) => ({ grain: 1 as const, from: from.getTime(), to: to.getTime() })),
    ];
    rangesOf.set(minutes, list);
    for (const range of list) cuts[range.grain].add(range.from).add(range.to);
  }
  // Disjoint segments: consecutive cut points of a grain covered by some range.
  const segments: Array<{ grain: 1 | 60; from: number; to: number }> = [];
  for (const grain of [1, 60] as const) {
    const points = [...cuts[grain]].sort((left, right) => left - right);
    for (let index = 0; index + 1 < points.length; index += 1) {
      const from = points[index]!;
      const to = points[index + 1]!;
      const covered = windows.some((minutes) => rangesOf.get(minutes)!.some((range) => range.grain === grain && range.from <= from && to <= range.to));
      if (covered) segments.push({ grain, from, to });
    }
  }
  const args: unknown[] = [];
  const add = (value: unknown) => {
    args.push(value);
    return sqlPlaceholder(db.provider, args.length);
  };
  const predicate = (segment: (typeof segments)[number]) =>
    `("bucket_minutes" = ${segment.grain} AND "bucket_start" >= ${add(sqlTimestamp(db.provider, new Date(segment.from)))} AND "bucket_start" < ${add(sqlTimestamp(db.provider, new Date(segment.to)))})`;
  // Built in the order of the statement (SQLite's `?` placeholders are positional).
  const segmentCase = `CASE ${segments.map((segment, index) => `WHEN ${predicate(segment)} THEN ${index}`).join(" ")} END`;
  const organizations = `"organization_id" IN (${options.organizationIds.map((id) => add(id)).join(", ")})`;
  const within = segments.map(predicate).join(" OR ");
  const groupColumns = options.groupBy.map((column) => `"${column}"`);
  const sql =
    `SELECT ${[...groupColumns, `"segment"`, ...monitorRollupSummedColumns.map((column) => `SUM("${column}") AS "${column}"`)].join(", ")} FROM (` +
    `SELECT ${[...groupColumns, `${segmentCase} AS "segment"`, ...monitorRollupSummedColumns.map((column) => `"${column}"`)].join(", ")} ` +
    `FROM "usage_monitor_rollups" WHERE ${organizations} AND (${within})) AS "segmented" GROUP BY ${[...groupColumns, `"segment"`].join(", ")}`;
  // Hundreds of thousands of rows into tens of thousands of groups, once a minute: JIT compilation costs
  // PostgreSQL more than it saves, and hashing the groups in memory beats sorting the rows by their text
  // dimensions (3.1 s against 5-6 s for 350,000 rows into 36,000 groups on a loaded 2-core machine; the hash
  // table took ~100 MB there, within 2 x work_mem, and spills to disk in batches beyond that).
  const rows = await db.queryStatement({ sql, args, settings: windowSumSettings });
  // Group key -> segment index -> sums.
  const groups = new Map<string, { key: string[]; bySegment: Map<number, number[]> }>();
  for (const row of rows) {
    const key = options.groupBy.map((column) => String(row[column] ?? ""));
    const mapKey = key.join("\u0000");
    const group = groups.get(mapKey) ?? { key, bySegment: new Map<number, number[]>() };
    groups.set(mapKey, group);
    group.bySegment.set(sqlNumber(row.segment), monitorRollupSummedColumns.map((column) => sqlNumber(row[column] ?? 0)));
  }
  for (const minutes of windows) {
    const ranges = rangesOf.get(minutes)!;
    const inWindow = segments.flatMap((segment, index) => (ranges.some((range) => range.grain === segment.grain && range.from <= segment.from && segment.to <= range.to) ? [index] : []));
    const sums: MonitorRollupSums[] = [];
    for (const group of groups.values()) {
      let values: number[] | null = null;
      for (const index of inWindow) {
        const segmentSums = group.bySegment.get(index);
        if (segmentSums === undefined) continue;
        values ??= new Array<number>(monitorRollupSummedColumns.length).fill(0);
        for (let column = 0; column < segmentSums.length; column += 1) values[column]! += segmentSums[column]!;
      }
      if (values !== null) sums.push({ key: group.key, values });
    }
    result.set(minutes, sums);
  }
  return result;
}

function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text.replace(" ", "T")}Z`);
}

/** Deletes minute and hour rows that no window can reach any more (older than `keepMinutes` before `now`). */
export async function deleteExpiredMonitorRollups(db: SqlClient, now: Date, keepMinutes = 1440 + 120): Promise<void> {
  const cutoff = new Date(Math.floor((now.getTime() - keepMinutes * 60_000) / 3_600_000) * 3_600_000);
  // One statement per grain: the natural key's index leads with (bucket_minutes, bucket_start).
  await db.runStatements(
    [1, 60].map((bucketMinutes) => ({
      sql: `DELETE FROM "usage_monitor_rollups" WHERE "bucket_minutes" = ${bucketMinutes} AND "bucket_start" < ${sqlPlaceholder(db.provider, 1)}`,
      args: [sqlTimestamp(db.provider, cutoff)],
    })),
  );
}
