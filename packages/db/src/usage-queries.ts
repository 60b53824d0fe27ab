import type { UsageEventRecord } from "@gateway/contracts";
import type { DatabaseClient, GatewayPrismaClient } from "./create-database.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { afterTimeCursor, decodeTimeCursor, pageSize, toPage, type Page } from "./repository-support.js";
import { type SqlClient, sqlNullableString, sqlNumber, sqlPlaceholder } from "./sql-client.js";
import type { StoredUsageEvent } from "./usage-events.js";

/** Filters of `listUsageEvents`. */
export interface ListUsageEventsOptions {
  organizationId: string;
  /** Inclusive lower bound of `occurredAt`. */
  from?: Date;
  /** Exclusive upper bound of `occurredAt`. */
  to?: Date;
  projectId?: string;
  apiKeyId?: string;
  userId?: string;
  /** Matches the model used, the requested model, or `<provider>/<model>`. */
  model?: string;
  /** An exact status, or "success" (< 400) / "error" (>= 400). */
  status?: number | "success" | "error";
  endpoint?: string;
  limit?: number;
  cursor?: string;
}

/** Usage events newest first with filters and cursor pagination (page size 1..200, default 50). */
export async function listUsageEvents(db: DatabaseClient, options: ListUsageEventsOptions): Promise<Page<StoredUsageEvent>> {
  const limit = pageSize(options.limit);
  const where: Record<string, unknown>[] = [{ organizationId: options.organizationId }];
  if (options.from) where.push({ occurredAt: { gte: options.from } });
  if (options.to) where.push({ occurredAt: { lt: options.to } });
  if (options.projectId) where.push({ projectId: options.projectId });
  if (options.apiKeyId) where.push({ apiKeyId: options.apiKeyId });
  if (options.userId) where.push({ userId: options.userId });
  if (options.endpoint) where.push({ endpoint: options.endpoint });
  if (options.model) {
    const alternatives: Record<string, unknown>[] = [{ model: options.model }, { requestedModel: options.model }];
    const slash = options.model.indexOf("/");
    if (slash > 0) alternatives.push({ provider: options.model.slice(0, slash), model: options.model.slice(slash + 1) });
    where.push({ OR: alternatives });
  }
  if (options.status === "success") where.push({ status: { lt: 400 } });
  else if (options.status === "error") where.push({ status: { gte: 400 } });
  else if (typeof options.status === "number") where.push({ status: options.status });
  if (options.cursor) where.push(afterTimeCursor("occurredAt", decodeTimeCursor(options.cursor)));
  const rows = await db.prisma.usageEvent.findMany({ where: { AND: where }, orderBy: [{ occurredAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const page = toPage(rows, limit, (row) => ({ at: row.occurredAt, id: row.id }));
  return { data: page.data.map(toUsageEventRecord), nextCursor: page.nextCursor };
}

/** One row of daily totals. Absent grouping dimensions are null; "" means unknown. */
export interface DailyUsageRow {
  day: string;
  projectId: string | null;
  apiKeyId: string | null;
  model: string | null;
  requestCount: number;
  errorCount: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costMicros: number;
}

/** Options of `listDailyUsage`. */
export interface ListDailyUsageOptions {
  organizationId: string;
  /** Inclusive "YYYY-MM-DD" (UTC). */
  fromDay?: string;
  /** Inclusive "YYYY-MM-DD" (UTC). */
  toDay?: string;
  projectId?: string;
  apiKeyId?: string;
  model?: string;
  /** Dimensions to keep besides the day. Default all three. */
  groupBy?: ("project" | "key" | "model")[];
}

const dailyDimensionColumns = { project: "project_id", key: "api_key_id", model: "model" } as const;

/**
 * Daily totals from the rollups, per day and the chosen dimensions, oldest day first. One raw
 * GROUP BY over `usage_daily_rollups` (its (organization, day) index bounds the read): a 30-day
 * view per key groups ~100k rollup rows into ~30k totals, which Prisma's `groupBy` materialised
 * row by row for seconds.
 */
export async function listDailyUsage(db: SqlClient, options: ListDailyUsageOptions): Promise<DailyUsageRow[]> {
  const groupBy = new Set(options.groupBy ?? ["project", "key", "model"]);
  const dimensions = (["project", "key", "model"] as const).filter((dimension) => groupBy.has(dimension));
  const args: unknown[] = [];
  const add = (value: unknown) => {
    args.push(value);
    return sqlPlaceholder(db.provider, args.length);
  };
  const conditions = [`"organization_id" = ${add(options.organizationId)}`];
  if (options.fromDay) conditions.push(`"day" >= ${add(options.fromDay)}`);
  if (options.toDay) conditions.push(`"day" <= ${add(options.toDay)}`);
  if (options.projectId) conditions.push(`"project_id" = ${add(options.projectId)}`);
  if (options.apiKeyId) conditions.push(`"api_key_id" = ${add(options.apiKeyId)}`);
  if (options.model) conditions.push(`"model" = ${add(options.model)}`);
  const keys = ["day", ...dimensions.map((dimension) => dailyDimensionColumns[dimension])].map((column) => `"${column}"`).join(", ");
  const sums = ["request_count", "error_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros"];
  const rows = await db.queryStatement({
    sql: `SELECT ${keys}, ${sums.map((column) => `SUM("${column}") AS "${column}"`).join(", ")}
      FROM "usage_daily_rollups" WHERE ${conditions.join(" AND ")} GROUP BY ${keys} ORDER BY ${keys}`,
    args,
  });
  return rows.map((row) => ({
    day: String(row.day),
    projectId: groupBy.has("project") ? sqlNullableString(row.project_id) : null,
    apiKeyId: groupBy.has("key") ? sqlNullableString(row.api_key_id) : null,
    model: groupBy.has("model") ? sqlNullableString(row.model) : null,
    requestCount: sqlNumber(row.request_count ?? 0),
    errorCount: sqlNumber(row.error_count ?? 0),
    inputTokens: sqlNumber(row.input_tokens ?? 0),
    outputTokens: sqlNumber(row.output_tokens ?? 0),
    cacheReadTokens: sqlNumber(row.cache_read_tokens ?? 0),
    cacheWriteTokens: sqlNumber(row.cache_write_tokens ?? 0),
    costMicros: sqlNumber(row.cost_micros ?? 0),
  }));
}

/** Maps a stored row back to the record shape. */
export function toUsageEventRecord(row: Awaited<ReturnType<GatewayPrismaClient["usageEvent"]["findFirstOrThrow"]>>): StoredUsageEvent {
  return {
    id: row.id,
    requestId: row.requestId,
    traceId: row.traceId,
    occurredAt: row.occurredAt,
    organizationId: row.organizationId,
    projectId: row.projectId,
    apiKeyId: row.apiKeyId,
    userId: row.userId,
    endpoint: row.endpoint as UsageEventRecord["endpoint"],
    requestedModel: row.requestedModel,
    routeId: row.routeId,
    provider: row.provider,
    model: row.model,
    status: row.status,
    errorCode: row.errorCode,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cacheReadTokens: row.cacheReadTokens,
    cacheWriteTokens: row.cacheWriteTokens,
    reasoningTokens: row.reasoningTokens,
    costMicros: Number(row.costMicros),
    budgetOutcome: row.budgetOutcome,
    latencyMs: row.latencyMs,
    timeToFirstByteMs: row.timeToFirstByteMs,
    clientLabel: row.clientLabel,
    sessionId: row.sessionId,
    guardrailFlags: parseJsonColumn(stringArraySchema, row.guardrailFlags, `usage_events ${row.id} guardrail_flags`),
    content: row.content ?? null,
  };
}
