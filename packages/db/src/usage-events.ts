import type { UsageEventRecord } from "@gateway/contracts";
import type { DatabaseProvider } from "./database-url.js";
import type { SqlStatement } from "./statement-runner.js";
import { type SqlClient, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";
import { timeOrderedId } from "./time-ordered-id.js";
import { toStoredUsageAttempts } from "./usage-event-rows.js";
import { type UsageEventToWrite, usageEventContentStatement, sealUsageEventContents } from "./usage-event-contents.js";
import type { SecretBox } from "./secret-box.js";
import { addCallTotals, hourlyUsageRollupStatements, organizationHourlyUsageRollupStatements, rollupModelKey, toInteger } from "./usage-hourly-rollups.js";
import { monitorRollupStatements } from "./usage-monitor-rollups.js";

/** A stored usage event (the record plus its id). */
export interface StoredUsageEvent extends UsageEventRecord {
  id: string;
}

/** Options of the batched usage writers. */
export interface UsageBatchOptions {
  /**
   * Rows per INSERT statement. Default: 500 on PostgreSQL (one round trip per 500 rows; 38
   * parameters each, under every driver's limit; at most 1000); 20 on SQLite, where each
   * statement text (one per row count) is prepared once and reused: a 20-row statement costs the
   * writer thread about a fifth less CPU per event than 20 single-row ones (fewer calls into the
   * driver, one bind and step per 20 rows), and its 760 parameters stay far under SQLite's limit.
   */
  chunkSize?: number;
  /**
   * Skip events whose `id` is already stored (read first, in chunks): a journal replay after a
   * crash may hold events that were written just before it. Their rollups are not counted again.
   */
  skipStored?: boolean;
  /**
   * Keys' last use to record in the same transaction (`api_keys.last_used_at`, by key id). A
   * stored time that is already later is kept (several gateways write the same keys). The
   * control-plane version does not move: its triggers ignore `last_used_at`.
   */
  apiKeysLastUsed?: ReadonlyMap<string, Date>;
  /** Seals (compresses and encrypts) content that is not sealed yet; without it such content is not stored. */
  secretBox?: SecretBox;
}

/** The default rows per statement of each dialect (see `UsageBatchOptions.chunkSize`). */
const defaultChunkSize = (provider: DatabaseProvider) => (provider === "sqlite" ? 20 : 500);

/** Columns of `usage_events` in insert order. */
const EVENT_COLUMNS = [
  "id", "request_id", "trace_id", "occurred_at", "organization_id", "project_id", "api_key_id", "user_id", "endpoint",
  "requested_model", "route_id", "provider", "model", "status", "error_code", "input_tokens", "output_tokens",
  "cache_read_tokens", "cache_write_tokens", "reasoning_tokens", "cost_micros", "budget_outcome", "latency_ms", "time_to_first_byte_ms",
  "client_label", "session_id", "guardrail_flags", "team_id", "connection_id", "client_version", "metadata", "attempts", "attempt_count",
  "gateway_overhead_ms", "rate_limit_outcome", "guardrail_flagged", "error_message", "has_content",
] as const;

const EMPTY_JSON_OBJECT = "{}";
const EMPTY_JSON_ARRAY = "[]";

/** The text of an events INSERT, by dialect and row count (SQLite writes one row per statement: one text, reused). */
const eventInsertSqlCache = new Map<string, string>();

/**
 * The INSERT of `rows` events; its text depends only on the dialect and the row count, so it is
 * built once per pair instead of once per statement (on SQLite once per event, and the runner's
 * lookup of the prepared statement hashes the same long text again).
 */
function eventInsertSql(provider: DatabaseProvider, rows: number): string {
  const key = `${provider}:${rows}`;
  let sql = eventInsertSqlCache.get(key);
  if (sql === undefined) {
    const columns = EVENT_COLUMNS.map((column) => `"${column}"`).join(", ");
    const values = Array.from({ length: rows }, (_, row) => `(${EVENT_COLUMNS.map((_column, column) => sqlPlaceholder(provider, row * EVENT_COLUMNS.length + column + 1)).join(", ")})`);
    // An event that carries its id (journaled) and is already stored is not inserted twice.
    sql = `INSERT INTO "usage_events" (${columns}) VALUES ${values.join(", ")} ON CONFLICT ("id", "occurred_at") DO NOTHING`;
    // Bounded: chunk sizes are a handful of values, but a caller may pass any.
    if (eventInsertSqlCache.size >= 64) eventInsertSqlCache.clear();
    eventInsertSqlCache.set(key, sql);
  }
  return sql;
}

/** Placeholder builder for one statement. */
function placeholders(provider: DatabaseProvider) {
  const args: unknown[] = [];
  return {
    args,
    add(value: unknown): string {
      args.push(value);
      return sqlPlaceholder(provider, args.length);
    },
  };
}

function eventValues(provider: DatabaseProvider, event: UsageEventToWrite): unknown[] {
  const cost = toInteger(event.costMicros);
  const flags = event.guardrailFlags ?? [];
  const attempts = event.attempts ?? [];
  const metadata = event.metadata;
  return [
    event.id ?? timeOrderedId(), event.requestId, event.traceId, sqlTimestamp(provider, event.occurredAt), event.organizationId, event.projectId,
    event.apiKeyId, event.userId, event.endpoint, event.requestedModel, event.routeId, event.provider, event.model,
    Math.trunc(event.status), event.errorCode, toInteger(event.inputTokens), toInteger(event.outputTokens),
    toInteger(event.cacheReadTokens), toInteger(event.cacheWriteTokens), toInteger(event.reasoningTokens ?? 0),
    provider === "postgresql" ? String(cost) : cost,
    event.budgetOutcome, toInteger(event.latencyMs), event.timeToFirstByteMs === null ? null : toInteger(event.timeToFirstByteMs),
    event.clientLabel, event.sessionId, flags.length === 0 ? EMPTY_JSON_ARRAY : JSON.stringify(flags),
    event.teamId ?? null, event.connectionId ?? null, event.clientVersion ?? null,
    metadata === null || metadata === undefined ? EMPTY_JSON_OBJECT : JSON.stringify(metadata),
    attempts.length === 0 ? EMPTY_JSON_ARRAY : JSON.stringify(toStoredUsageAttempts(attempts)), attempts.length,
    event.gatewayOverheadMs === null || event.gatewayOverheadMs === undefined ? null : toInteger(event.gatewayOverheadMs),
    event.rateLimitOutcome ?? null, flags.length > 0, event.errorMessage ?? null, event.sealedContent !== undefined && event.sealedContent !== null,
  ];
}

/**
 * Multi-row INSERT statements for the events, and one INSERT into `usage_event_contents` per
 * event with sealed content (see `sealUsageEventContents`; content that is not sealed is not stored).
 */
export function usageEventStatements(provider: DatabaseProvider, events: UsageEventToWrite[], chunkSize = defaultChunkSize(provider)): SqlStatement[] {
  const statements: SqlStatement[] = [];
  const rowsPerStatement = Math.max(1, Math.min(chunkSize, 1_000));
  for (let start = 0; start < events.length; start += rowsPerStatement) {
    const end = Math.min(events.length, start + rowsPerStatement);
    const args: unknown[] = [];
    for (let index = start; index < end; index += 1) args.push(...eventValues(provider, events[index]!));
    statements.push({ sql: eventInsertSql(provider, end - start), args });
  }
  for (const event of events) {
    if (event.sealedContent !== undefined && event.sealedContent !== null && event.organizationId !== null) {
      statements.push(usageEventContentStatement(provider, event, event.sealedContent));
    }
  }
  return statements;
}

/**
 * One `UPDATE api_keys SET last_used_at` per key (the gateway sends at most one per key and
 * minute); a stored later time is kept.
 */
export function apiKeyLastUsedStatements(provider: DatabaseProvider, lastUsed: ReadonlyMap<string, Date>): SqlStatement[] {
  const statements: SqlStatement[] = [];
  for (const [id, at] of lastUsed) {
    const time = sqlTimestamp(provider, at);
    const [timePlaceholder, idPlaceholder, laterPlaceholder] = [1, 2, 3].map((position) => sqlPlaceholder(provider, position));
    statements.push({
      sql: `UPDATE "api_keys" SET "last_used_at" = ${timePlaceholder} WHERE "id" = ${idPlaceholder} AND ("last_used_at" IS NULL OR "last_used_at" < ${laterPlaceholder})`,
      args: [time, id, time],
    });
  }
  return statements;
}

/** Runs statements in one transaction on the raw driver. */
async function runInTransaction(db: SqlClient, statements: SqlStatement[]): Promise<void> {
  if (statements.length === 0) return;
  await db.runStatements(statements);
}

/**
 * Inserts usage events in chunked multi-row INSERTs, all in one transaction, on the raw driver
 * (Prisma's createMany costs ~1 ms per row here). Content of `decisions` events is dropped.
 * Returns the number of rows written. Does not touch the daily rollups (see `writeUsageBatch`).
 */
export async function appendUsageEvents(db: SqlClient, events: UsageEventToWrite[], options: UsageBatchOptions = {}): Promise<number> {
  if (events.length === 0) return 0;
  await runInTransaction(db, usageEventStatements(db.provider, events, options.chunkSize));
  return events.length;
}

export { rollupModelKey };

/** Daily totals of one (day, organization, project, key, model). */
export interface UsageRollupGroup {
  day: string;
  organizationId: string;
  projectId: string;
  apiKeyId: string;
  model: string;
  requestCount: bigint;
  errorCount: bigint;
  inputTokens: bigint;
  outputTokens: bigint;
  cacheReadTokens: bigint;
  cacheWriteTokens: bigint;
  costMicros: bigint;
}

/** Sums events per (UTC day, organization, project, key, model); "" stands for unknown. */
export function aggregateUsageRollups(events: UsageEventRecord[]): UsageRollupGroup[] {
  // Sums are kept as numbers while adding (exact: a batch's totals stay far below 2^53) and
  // turned into bigints once per group.
  const groups = new Map<string, { key: Omit<UsageRollupGroup, "requestCount" | "errorCount" | "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "costMicros">; sums: number[] }>();
  // A batch spans a day or two: each day's text is made once (not an ISO string per event).
  let dayNumber = Number.NaN;
  let day = "";
  for (const event of events) {
    const eventDayNumber = Math.floor(event.occurredAt.getTime() / 86_400_000);
    if (eventDayNumber !== dayNumber) {
      dayNumber = eventDayNumber;
      day = new Date(eventDayNumber * 86_400_000).toISOString().slice(0, 10);
    }
    const organizationId = event.organizationId ?? "";
    const projectId = event.projectId ?? "";
    const apiKeyId = event.apiKeyId ?? "";
    const model = rollupModelKey(event);
    const key = `${day}\u0000${organizationId}\u0000${projectId}\u0000${apiKeyId}\u0000${model}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { key: { day, organizationId, projectId, apiKeyId, model }, sums: [0, 0, 0, 0, 0, 0, 0] };
      groups.set(key, group);
    }
    addCallTotals(group.sums, event);
  }
  return [...groups.values()].map(({ key, sums }) => ({
    ...key,
    requestCount: BigInt(sums[0]!),
    errorCount: BigInt(sums[1]!),
    inputTokens: BigInt(sums[2]!),
    outputTokens: BigInt(sums[3]!),
    cacheReadTokens: BigInt(sums[4]!),
    cacheWriteTokens: BigInt(sums[5]!),
    costMicros: BigInt(sums[6]!),
  }));
}

const ROLLUP_COLUMNS = [
  "id", "day", "organization_id", "project_id", "api_key_id", "model",
  "request_count", "error_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "updated_at",
] as const;
const ROLLUP_SUMMED = ROLLUP_COLUMNS.slice(6, 13);

/**
 * `INSERT ... ON CONFLICT (natural key) DO UPDATE SET x = x + excluded.x` statements (same
 * syntax on SQLite and PostgreSQL): atomic increments, safe with concurrent writers.
 */
export function usageRollupStatements(provider: DatabaseProvider, groups: UsageRollupGroup[], chunkSize = defaultChunkSize(provider)): SqlStatement[] {
  const now = sqlTimestamp(provider, new Date());
  const statements: SqlStatement[] = [];
  const updates = [...ROLLUP_SUMMED.map((column) => `"${column}" = "usage_daily_rollups"."${column}" + excluded."${column}"`), `"updated_at" = excluded."updated_at"`];
  const rowsPerStatement = Math.max(1, Math.min(chunkSize, 500));
  for (let start = 0; start < groups.length; start += rowsPerStatement) {
    const builder = placeholders(provider);
    const rows = groups.slice(start, start + rowsPerStatement).map((group) => {
      const counts = [group.requestCount, group.errorCount, group.inputTokens, group.outputTokens, group.cacheReadTokens, group.cacheWriteTokens, group.costMicros];
      const values = [timeOrderedId(), group.day, group.organizationId, group.projectId, group.apiKeyId, group.model, ...counts.map((count) => (provider === "postgresql" ? count.toString() : count)), now];
      return `(${values.map((value) => builder.add(value)).join(", ")})`;
    });
    statements.push({
      sql:
        `INSERT INTO "usage_daily_rollups" (${ROLLUP_COLUMNS.map((column) => `"${column}"`).join(", ")}) VALUES ${rows.join(", ")} ` +
        `ON CONFLICT ("day", "organization_id", "project_id", "api_key_id", "model") DO UPDATE SET ${updates.join(", ")}`,
      args: builder.args,
    });
  }
  return statements;
}

/** Adds the events to the daily, hourly, organization hourly and monitor rollups (one transaction). */
export async function applyUsageRollups(db: SqlClient, events: UsageEventRecord[], options: UsageBatchOptions = {}): Promise<void> {
  if (events.length === 0) return;
  await runInTransaction(db, [
    ...usageRollupStatements(db.provider, aggregateUsageRollups(events), options.chunkSize),
    ...hourlyUsageRollupStatements(db.provider, events, options.chunkSize),
    ...organizationHourlyUsageRollupStatements(db.provider, events, options.chunkSize),
    ...monitorRollupStatements(db.provider, events, options.chunkSize),
  ]);
}

/** The events whose `id` is not stored yet (events without an id are always new). */
async function withoutStoredEvents<Event extends UsageEventRecord>(db: SqlClient, events: Event[]): Promise<Event[]> {
  const stored = new Set<string>();
  const withIds = events.filter((event) => event.id !== undefined);
  for (let start = 0; start < withIds.length; start += 500) {
    const ids = withIds.slice(start, start + 500).map((event) => event.id!);
    const list = ids.map((_, index) => sqlPlaceholder(db.provider, index + 1)).join(", ");
    const rows = await db.queryStatement({ sql: `SELECT "id" FROM "usage_events" WHERE "id" IN (${list})`, args: ids });
    for (const row of rows) stored.add(String(row.id));
  }
  return stored.size === 0 ? events : events.filter((event) => event.id === undefined || !stored.has(event.id));
}

/**
 * What the gateway's batched usage writer calls: inserts the events (and their sealed content) AND
 * increments the daily, hourly and organization hourly rollups in ONE transaction, so a retried batch never counts twice in the rollups, with the
 * keys' `last_used_at` (`apiKeysLastUsed`, also without events: the last ones at shutdown). Returns
 * the number of events written (without those skipped by `skipStored`).
 */
export async function writeUsageBatch(db: SqlClient, events: UsageEventToWrite[], options: UsageBatchOptions = {}): Promise<number> {
  if (options.skipStored) events = await withoutStoredEvents(db, events);
  if (options.secretBox !== undefined) events = await sealUsageEventContents(events, options.secretBox);
  const lastUsed = options.apiKeysLastUsed === undefined ? [] : apiKeyLastUsedStatements(db.provider, options.apiKeysLastUsed);
  if (events.length === 0 && lastUsed.length === 0) return 0;
  await runInTransaction(db, [
    ...usageEventStatements(db.provider, events, options.chunkSize),
    ...usageRollupStatements(db.provider, aggregateUsageRollups(events), options.chunkSize),
    ...hourlyUsageRollupStatements(db.provider, events, options.chunkSize),
    ...organizationHourlyUsageRollupStatements(db.provider, events, options.chunkSize),
    ...monitorRollupStatements(db.provider, events, options.chunkSize),
    ...lastUsed,
  ]);
  return events.length;
}
