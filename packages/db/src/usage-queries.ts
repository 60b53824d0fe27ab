import type { UsageEventRecord } from "@gateway/contracts";
import type { DatabaseClient, GatewayPrismaClient } from "./create-database.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { afterTimeCursor, decodeTimeCursor, pageSize, toPage, type Page } from "./repository-support.js";
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

/** Daily totals from the rollups, per day and the chosen dimensions, oldest day first. */
export async function listDailyUsage(db: DatabaseClient, options: ListDailyUsageOptions): Promise<DailyUsageRow[]> {
  const groupBy = new Set(options.groupBy ?? ["project", "key", "model"]);
  const fields = ["day", ...(groupBy.has("project") ? ["projectId"] : []), ...(groupBy.has("key") ? ["apiKeyId"] : []), ...(groupBy.has("model") ? ["model"] : [])] as (
    | "day"
    | "projectId"
    | "apiKeyId"
    | "model"
  )[];
  const day: Record<string, string> = {};
  if (options.fromDay) day.gte = options.fromDay;
  if (options.toDay) day.lte = options.toDay;
  // groupBy's conditional types cannot follow a dynamic `by`; the arguments are built above.
  const groupByRollups = db.prisma.usageDailyRollup.groupBy.bind(db.prisma.usageDailyRollup) as unknown as (args: unknown) => Promise<unknown[]>;
  const rows = await groupByRollups({
    by: fields,
    where: {
      organizationId: options.organizationId,
      ...(options.fromDay || options.toDay ? { day } : {}),
      ...(options.projectId ? { projectId: options.projectId } : {}),
      ...(options.apiKeyId ? { apiKeyId: options.apiKeyId } : {}),
      ...(options.model ? { model: options.model } : {}),
    },
    _sum: { requestCount: true, errorCount: true, inputTokens: true, outputTokens: true, cacheReadTokens: true, cacheWriteTokens: true, costMicros: true },
    orderBy: fields.map((field) => ({ [field]: "asc" as const })),
  });
  return rows.map((row) => {
    const record = row as unknown as Record<string, string> & { _sum: Record<string, bigint | null> };
    const sum = (field: string) => Number(record._sum[field] ?? 0n);
    return {
      day: record.day!,
      projectId: groupBy.has("project") ? (record.projectId ?? null) : null,
      apiKeyId: groupBy.has("key") ? (record.apiKeyId ?? null) : null,
      model: groupBy.has("model") ? (record.model ?? null) : null,
      requestCount: sum("requestCount"),
      errorCount: sum("errorCount"),
      inputTokens: sum("inputTokens"),
      outputTokens: sum("outputTokens"),
      cacheReadTokens: sum("cacheReadTokens"),
      cacheWriteTokens: sum("cacheWriteTokens"),
      costMicros: sum("costMicros"),
    };
  });
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
