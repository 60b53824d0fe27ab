import { GatewayError } from "@gateway/errors";
import type { DatabaseProvider } from "./database-url.js";
import { newestFirstWindows } from "./activity-time-windows.js";
import { decodeTimeCursor, encodeTimeCursor, pageSize, type Page, type TimeCursor } from "./repository-support.js";
import {
  type SqlClient,
  sqlBoolean,
  sqlDate,
  sqlJson,
  sqlNullableNumber,
  sqlNullableString,
  sqlNumber,
  sqlPlaceholder,
  sqlTimestamp,
} from "./sql-client.js";
import { parseStoredMetadata, parseStoredUsageAttempts, type StoredUsageAttempt } from "./usage-event-rows.js";

/** An HTTP status filter: one status, or a class (`2xx`, `4xx`, `5xx`). */
export type ActivityStatusFilter = number | "2xx" | "3xx" | "4xx" | "5xx";

/**
 * Filters shared by the activity list, the sessions, one session's calls and the export. Every
 * field is optional except the organization; all given fields must hold (AND).
 */
export interface ActivityFilters {
  organizationId: string;
  /**
   * The projects the reader may see: null (or absent) for every project of the organization;
   * otherwise only calls of these projects (an empty list sees nothing, calls without a project
   * included).
   */
  visibleProjectIds?: readonly string[] | null;
  /** Inclusive lower bound of `occurred_at`. */
  from?: Date;
  /** Exclusive upper bound of `occurred_at`. */
  to?: Date;
  projectId?: string;
  teamId?: string;
  apiKeyId?: string;
  userId?: string;
  requestedModel?: string;
  /** The served model, as recorded. */
  model?: string;
  connectionId?: string;
  endpoint?: string;
  status?: ActivityStatusFilter;
  errorCode?: string;
  clientLabel?: string;
  clientVersion?: string;
  sessionId?: string;
  /** Metadata pairs that must all be present with exactly these values. */
  metadata?: readonly { key: string; value: string }[];
  minLatencyMs?: number;
  minCostMicros?: number;
  maxCostMicros?: number;
  /** true: only calls a guardrail flagged; false: only unflagged calls. */
  guardrailFlagged?: boolean;
  budgetOutcome?: string;
  rateLimitOutcome?: string;
  requestId?: string;
}

/** One recorded call as the activity list shows it. */
export interface ActivityCall {
  id: string;
  requestId: string;
  occurredAt: Date;
  projectId: string | null;
  teamId: string | null;
  apiKeyId: string | null;
  userId: string | null;
  endpoint: string;
  requestedModel: string | null;
  model: string | null;
  provider: string | null;
  connectionId: string | null;
  status: number;
  errorCode: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costMicros: number;
  latencyMs: number;
  timeToFirstByteMs: number | null;
  gatewayOverheadMs: number | null;
  clientLabel: string | null;
  clientVersion: string | null;
  sessionId: string | null;
  metadata: Record<string, string>;
  guardrailFlags: string[];
  budgetOutcome: string | null;
  rateLimitOutcome: string | null;
  attemptCount: number;
  hasContent: boolean;
}

/** Everything recorded of one call except its content. */
export interface ActivityCallDetail extends ActivityCall {
  attempts: StoredUsageAttempt[];
  errorMessage: string | null;
}

/** Options of {@link listActivityCalls}. */
export interface ListActivityCallsOptions extends ActivityFilters {
  /** Page size 1..200 (default 50). */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

/** The columns of a list row. */
const CALL_COLUMNS = [
  "id", "request_id", "occurred_at", "project_id", "team_id", "api_key_id", "user_id", "endpoint", "requested_model", "model", "provider",
  "connection_id", "status", "error_code", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens",
  "cost_micros", "latency_ms", "time_to_first_byte_ms", "gateway_overhead_ms", "client_label", "client_version", "session_id", "metadata",
  "guardrail_flags", "budget_outcome", "rate_limit_outcome", "attempt_count", "has_content",
] as const;
const callColumnList = CALL_COLUMNS.map((column) => `"${column}"`).join(", ");

/** Collects parameterised conditions in one dialect's placeholder style. */
class SqlConditions {
  readonly conditions: string[] = [];
  readonly args: unknown[] = [];

  constructor(readonly provider: DatabaseProvider) {}

  /** Adds a parameter and answers its placeholder. */
  parameter(value: unknown): string {
    this.args.push(value);
    return sqlPlaceholder(this.provider, this.args.length);
  }

  add(condition: string): void {
    this.conditions.push(condition);
  }

  equals(column: string, value: string | number | undefined): void {
    if (value !== undefined) this.add(`"${column}" = ${this.parameter(value)}`);
  }

  timestamp(value: Date): string {
    return this.parameter(sqlTimestamp(this.provider, value));
  }

  bigint(value: number): string {
    // int8 parameters go to `pg` as text; SQLite takes the number.
    return this.parameter(this.provider === "postgresql" ? String(Math.trunc(value)) : Math.trunc(value));
  }

  where(): string {
    return this.conditions.length === 0 ? "" : `WHERE ${this.conditions.join(" AND ")}`;
  }
}

const statusClasses: Record<string, [number, number]> = { "2xx": [200, 300], "3xx": [300, 400], "4xx": [400, 500], "5xx": [500, 600] };

/** Adds every filter of `filters` to `sql` (the organization and the visible projects first). */
function addActivityFilters(sql: SqlConditions, filters: ActivityFilters): void {
  sql.equals("organization_id", filters.organizationId);
  const visible = filters.visibleProjectIds;
  if (visible !== null && visible !== undefined) {
    if (visible.length === 0) sql.add("1 = 0");
    else sql.add(`"project_id" IN (${visible.map((id) => sql.parameter(id)).join(", ")})`);
  }
  if (filters.from) sql.add(`"occurred_at" >= ${sql.timestamp(filters.from)}`);
  if (filters.to) sql.add(`"occurred_at" < ${sql.timestamp(filters.to)}`);
  sql.equals("project_id", filters.projectId);
  sql.equals("team_id", filters.teamId);
  sql.equals("api_key_id", filters.apiKeyId);
  sql.equals("user_id", filters.userId);
  sql.equals("requested_model", filters.requestedModel);
  sql.equals("model", filters.model);
  sql.equals("connection_id", filters.connectionId);
  sql.equals("endpoint", filters.endpoint);
  if (typeof filters.status === "number") sql.equals("status", Math.trunc(filters.status));
  else if (filters.status !== undefined) {
    const [low, high] = statusClasses[filters.status]!;
    // SQLite would range-scan the (organization, status, occurred_at) index and sort every match
    // (a second for 30,000 calls); `+status` keeps it on the time-ordered walk that stops at a page.
    const column = sql.provider === "sqlite" ? `+"status"` : `"status"`;
    sql.add(`${column} >= ${sql.parameter(low)} AND ${column} < ${sql.parameter(high)}`);
  }
  sql.equals("error_code", filters.errorCode);
  sql.equals("client_label", filters.clientLabel);
  sql.equals("client_version", filters.clientVersion);
  sql.equals("session_id", filters.sessionId);
  for (const { key, value } of filters.metadata ?? []) {
    if (sql.provider === "postgresql") {
      // Containment is what a GIN index on `metadata` serves.
      sql.add(`"metadata" @> ${sql.parameter(JSON.stringify({ [key]: value }))}::jsonb`);
    } else {
      // The writer stores metadata as JSON.stringify's compact text, so a call with the pair holds
      // `"key":"value"` spelled exactly so: that substring test is a cheap sieve (no JSON parsed
      // for the ~99% of calls without it), json_extract stays the exact test of the rest.
      const pair = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
      sql.add(`instr("metadata", ${sql.parameter(pair)}) > 0`);
      sql.add(`json_extract("metadata", ${sql.parameter(`$."${key.replace(/"/g, "")}"`)}) = ${sql.parameter(value)}`);
    }
  }
  if (filters.minLatencyMs !== undefined) sql.add(`"latency_ms" >= ${sql.parameter(Math.trunc(filters.minLatencyMs))}`);
  if (filters.minCostMicros !== undefined) sql.add(`"cost_micros" >= ${sql.bigint(filters.minCostMicros)}`);
  if (filters.maxCostMicros !== undefined) sql.add(`"cost_micros" <= ${sql.bigint(filters.maxCostMicros)}`);
  if (filters.guardrailFlagged !== undefined) {
    // Literals, not parameters: only a literal lets the planners prove the partial index on
    // flagged calls applies (SQLite keeps booleans as 0/1).
    if (sql.provider === "postgresql") sql.add(filters.guardrailFlagged ? `"guardrail_flagged"` : `NOT "guardrail_flagged"`);
    else sql.add(`"guardrail_flagged" = ${filters.guardrailFlagged ? 1 : 0}`);
  }
  sql.equals("budget_outcome", filters.budgetOutcome);
  sql.equals("rate_limit_outcome", filters.rateLimitOutcome);
  sql.equals("request_id", filters.requestId);
}

/** Rows strictly after `cursor` in (occurred_at, id) order, descending or ascending. */
function addKeysetCondition(sql: SqlConditions, cursor: TimeCursor, direction: "desc" | "asc"): void {
  // Each use takes its own parameter: SQLite's `?` placeholders are positional.
  const bound = sql.timestamp(cursor.at);
  const at = sql.timestamp(cursor.at);
  const again = sql.timestamp(cursor.at);
  const id = sql.parameter(cursor.id);
  // The outer bound is a plain range on occurred_at, which the (…, occurred_at) indexes serve.
  if (direction === "desc") sql.add(`"occurred_at" <= ${bound} AND ("occurred_at" < ${at} OR ("occurred_at" = ${again} AND "id" < ${id}))`);
  else sql.add(`"occurred_at" >= ${bound} AND ("occurred_at" > ${at} OR ("occurred_at" = ${again} AND "id" > ${id}))`);
}

function stringList(value: unknown): string[] {
  const parsed = value === null || value === undefined ? [] : sqlJson(value);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
}

function toActivityCall(row: Record<string, unknown>): ActivityCall {
  return {
    id: String(row.id),
    requestId: String(row.request_id),
    occurredAt: sqlDate(row.occurred_at)!,
    projectId: sqlNullableString(row.project_id),
    teamId: sqlNullableString(row.team_id),
    apiKeyId: sqlNullableString(row.api_key_id),
    userId: sqlNullableString(row.user_id),
    endpoint: String(row.endpoint),
    requestedModel: sqlNullableString(row.requested_model),
    model: sqlNullableString(row.model),
    provider: sqlNullableString(row.provider),
    connectionId: sqlNullableString(row.connection_id),
    status: sqlNumber(row.status),
    errorCode: sqlNullableString(row.error_code),
    inputTokens: sqlNumber(row.input_tokens),
    outputTokens: sqlNumber(row.output_tokens),
    cacheReadTokens: sqlNumber(row.cache_read_tokens),
    cacheWriteTokens: sqlNumber(row.cache_write_tokens),
    reasoningTokens: sqlNumber(row.reasoning_tokens ?? 0),
    costMicros: sqlNumber(row.cost_micros),
    latencyMs: sqlNumber(row.latency_ms),
    timeToFirstByteMs: sqlNullableNumber(row.time_to_first_byte_ms),
    gatewayOverheadMs: sqlNullableNumber(row.gateway_overhead_ms),
    clientLabel: sqlNullableString(row.client_label),
    clientVersion: sqlNullableString(row.client_version),
    sessionId: sqlNullableString(row.session_id),
    metadata: parseStoredMetadata(row.metadata),
    guardrailFlags: stringList(row.guardrail_flags),
    budgetOutcome: sqlNullableString(row.budget_outcome),
    rateLimitOutcome: sqlNullableString(row.rate_limit_outcome),
    attemptCount: sqlNumber(row.attempt_count ?? 0),
    hasContent: sqlBoolean(row.has_content),
  };
}

/**
 * One keyset page of calls (internal: the cursor is already decoded). Newest first, the range is
 * read in time windows (see {@link newestFirstWindows}) until the page is full.
 */
async function queryCallPage(
  db: SqlClient,
  filters: ActivityFilters,
  limit: number,
  after: TimeCursor | undefined,
  direction: "desc" | "asc",
): Promise<ActivityCall[]> {
  // A session or a request id picks a handful of calls through its own index: one query over the
  // whole range finds them at once, where windows would ask up to three times.
  if (direction === "asc" || filters.sessionId !== undefined || filters.requestId !== undefined) return queryCallWindow(db, filters, limit, after, direction);
  const calls: ActivityCall[] = [];
  for (const window of newestFirstWindows({ ...(filters.from ? { from: filters.from } : {}), ...(filters.to ? { to: filters.to } : {}) }, after?.at, new Date())) {
    const { from: _from, to: _to, ...rest } = filters;
    calls.push(...(await queryCallWindow(db, { ...rest, ...window }, limit - calls.length, after, direction)));
    if (calls.length >= limit) break;
  }
  return calls;
}

async function queryCallWindow(
  db: SqlClient,
  filters: ActivityFilters,
  limit: number,
  after: TimeCursor | undefined,
  direction: "desc" | "asc",
): Promise<ActivityCall[]> {
  const sql = new SqlConditions(db.provider);
  addActivityFilters(sql, filters);
  if (after) addKeysetCondition(sql, after, direction);
  const order = direction === "desc" ? "DESC" : "ASC";
  const rows = await db.queryStatement({
    sql: `SELECT ${callColumnList} FROM "usage_events" ${sql.where()} ORDER BY "occurred_at" ${order}, "id" ${order} LIMIT ${sql.parameter(limit)}`,
    args: sql.args,
  });
  return rows.map(toActivityCall);
}

function pageOfCalls(rows: ActivityCall[], limit: number): Page<ActivityCall> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, nextCursor: hasMore && last ? encodeTimeCursor({ at: last.occurredAt, id: last.id }) : null };
}

/**
 * Recorded calls newest first, with every activity filter and keyset pagination on
 * (occurred_at, id): a page continues strictly below the previous page's last call, so calls
 * recorded meanwhile (newer) never shift, repeat or hide rows of later pages.
 */
export async function listActivityCalls(db: SqlClient, options: ListActivityCallsOptions): Promise<Page<ActivityCall>> {
  const limit = pageSize(options.limit);
  const cursor = options.cursor === undefined ? undefined : decodeTimeCursor(options.cursor);
  return pageOfCalls(await queryCallPage(db, options, limit + 1, cursor, "desc"), limit);
}

/** Options of {@link iterateActivityCalls}. */
export interface IterateActivityCallsOptions {
  /** Rows fetched per query (default 1000). Memory stays bounded by one batch. */
  batchSize?: number;
}

/**
 * Every call matching the filters, newest first, fetched in keyset pages of `batchSize` rows
 * (constant memory whatever the total: at most the page handed out and the next one; the export
 * streams from here). The next page is asked for before a page is handed out, so the database
 * reads it while the caller encodes this one. Calls recorded after the first page are newer than
 * it and so never appear half way.
 */
export async function* iterateActivityCalls(db: SqlClient, filters: ActivityFilters, options: IterateActivityCallsOptions = {}): AsyncGenerator<ActivityCall[]> {
  const batchSize = Math.max(1, Math.min(10_000, Math.floor(options.batchSize ?? 1000)));
  // A page read ahead may fail while the caller still encodes the previous one: it is marked as
  // handled at once (the failure surfaces from the `await` below, or nowhere if the caller stopped).
  const readAhead = (after: TimeCursor | undefined) => {
    const page = queryCallPage(db, filters, batchSize, after, "desc");
    page.catch(() => undefined);
    return page;
  };
  let pending: Promise<ActivityCall[]> | null = readAhead(undefined);
  while (pending !== null) {
    const rows: ActivityCall[] = await pending;
    const last = rows[rows.length - 1];
    pending = rows.length === batchSize && last !== undefined ? readAhead({ at: last.occurredAt, id: last.id }) : null;
    if (rows.length > 0) yield rows;
  }
}

/** Options of {@link getActivityCall}. */
export interface GetActivityCallOptions {
  organizationId: string;
  requestId: string;
  /** As in {@link ActivityFilters.visibleProjectIds}. */
  visibleProjectIds?: readonly string[] | null;
}

/** How far from the time in a gateway request id its call may be recorded (clock steps, queueing). */
const requestIdTimeMarginMs = 86_400_000;

/**
 * The time a gateway request id was made at: `req_` + 9 base-36 digits of Unix ms + 16 random
 * characters (see the pipeline's `generateRequestId`); null for any other id.
 */
export function requestIdTime(requestId: string): Date | null {
  const match = /^req_([0-9a-z]{9})[A-Za-z0-9_-]{16}$/.exec(requestId);
  if (match === null) return null;
  const ms = Number.parseInt(match[1]!, 36);
  return Number.isSafeInteger(ms) ? new Date(ms) : null;
}

/**
 * Everything recorded of one call of the organization (the latest, should a request id repeat),
 * or null. A gateway request id carries its time: the call is looked up in that day first (on
 * PostgreSQL only the matching day partitions are searched), then everywhere.
 */
export async function getActivityCall(db: SqlClient, options: GetActivityCallOptions): Promise<ActivityCallDetail | null> {
  const at = requestIdTime(options.requestId);
  if (at !== null) {
    const near = await queryCallDetail(db, options, { from: new Date(at.getTime() - requestIdTimeMarginMs), to: new Date(at.getTime() + requestIdTimeMarginMs) });
    if (near !== null) return near;
  }
  return queryCallDetail(db, options, {});
}

async function queryCallDetail(db: SqlClient, options: GetActivityCallOptions, range: { from?: Date; to?: Date }): Promise<ActivityCallDetail | null> {
  const sql = new SqlConditions(db.provider);
  addActivityFilters(sql, { organizationId: options.organizationId, visibleProjectIds: options.visibleProjectIds ?? null, requestId: options.requestId, ...range });
  const rows = await db.queryStatement({
    sql: `SELECT ${callColumnList}, "attempts", "error_message" FROM "usage_events" ${sql.where()} ORDER BY "occurred_at" DESC, "id" DESC LIMIT 1`,
    args: sql.args,
  });
  const row = rows[0];
  if (row === undefined) return null;
  return { ...toActivityCall(row), attempts: parseStoredUsageAttempts(row.attempts), errorMessage: sqlNullableString(row.error_message) };
}

/** Calls of one session, grouped by (project, API key, user, session id). */
export interface ActivitySession {
  sessionId: string;
  projectId: string | null;
  apiKeyId: string | null;
  userId: string | null;
  firstAt: Date;
  lastAt: Date;
  callCount: number;
  errorCount: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  /** Served models (requested ones when none was served), sorted. */
  models: string[];
}

/** Options of {@link listActivitySessions}. */
export interface ListActivitySessionsOptions extends ActivityFilters {
  limit?: number;
  cursor?: string;
}

interface SessionCursor {
  lastAt: Date;
  sessionId: string;
  projectId: string;
  apiKeyId: string;
  userId: string;
}

function encodeSessionCursor(session: ActivitySession): string {
  const key = [session.sessionId, session.projectId ?? "", session.apiKeyId ?? "", session.userId ?? ""];
  return encodeTimeCursor({ at: session.lastAt, id: JSON.stringify(key) });
}

function decodeSessionCursor(value: string): SessionCursor {
  const cursor = decodeTimeCursor(value);
  try {
    const key = JSON.parse(cursor.id) as unknown;
    if (Array.isArray(key) && key.length === 4 && key.every((part) => typeof part === "string")) {
      const [sessionId, projectId, apiKeyId, userId] = key as string[];
      return { lastAt: cursor.at, sessionId: sessionId!, projectId: projectId!, apiKeyId: apiKeyId!, userId: userId! };
    }
  } catch {
    // fall through
  }
  throw new GatewayError("invalid_request", { message: "The cursor is not valid.", param: "cursor" });
}

/** Rows of the first newest-first walk for session candidates, per session of the page (few ids to group when sessions are short); each further walk doubles, up to {@link sessionWalkMaximumRows}. */
const sessionWalkRowsPerSession = 4;
const sessionWalkMaximumRows = 64_000;
/** More candidate session ids than this and the page is grouped over every matching call instead. */
const sessionCandidateMaximum = 5000;

/**
 * Sessions (`X-Gateway-Session-ID`), kept apart per organization, project, API key and user as
 * the spec isolates them, with totals over the calls matching the filters; latest activity first,
 * keyset-paginated on (last call, session key).
 *
 * A session's place in the order is its newest call, so the calls are walked newest first (the
 * (…, occurred_at) indexes, stopping early) to find the sessions of the page, and only those are
 * grouped: a 30-day window of millions of calls groups a few hundred sessions instead of all of
 * them. The walk grows until the page's last session is newer than every call not walked yet,
 * which makes the page exactly the one grouping everything would give; past
 * {@link sessionCandidateMaximum} candidates it groups everything.
 */
export async function listActivitySessions(db: SqlClient, options: ListActivitySessionsOptions): Promise<Page<ActivitySession>> {
  const limit = pageSize(options.limit);
  const cursor = options.cursor === undefined ? undefined : decodeSessionCursor(options.cursor);
  const candidates = new Set<string>();
  let walkedTo: TimeCursor | undefined;
  let walkRows = sessionWalkRowsPerSession * (limit + 1);
  for (;;) {
    const walk = new SqlConditions(db.provider);
    addActivityFilters(walk, options);
    walk.add(`"session_id" IS NOT NULL`);
    if (cursor !== undefined) walk.add(`"occurred_at" <= ${walk.timestamp(cursor.lastAt)}`);
    if (walkedTo !== undefined) addKeysetCondition(walk, walkedTo, "desc");
    const rows = await db.queryStatement({
      sql: `SELECT "session_id", "occurred_at", "id" FROM "usage_events" ${walk.where()} ORDER BY "occurred_at" DESC, "id" DESC LIMIT ${walk.parameter(walkRows)}`,
      args: walk.args,
    });
    for (const row of rows) candidates.add(String(row.session_id));
    const exhausted = rows.length < walkRows;
    const last = rows[rows.length - 1];
    if (last !== undefined) walkedTo = { at: sqlDate(last.occurred_at)!, id: String(last.id) };
    if (candidates.size > sessionCandidateMaximum) return (await groupSessions(db, options, limit, cursor, null)).page;
    if (candidates.size === 0) return { data: [], nextCursor: null };
    const page = await groupSessions(db, options, limit, cursor, [...candidates]);
    // Every session not seen yet has its newest call at or before the walk's last call: the page is
    // final when it is full and its last session is newer than that, or when nothing is left.
    const pageEnd = page.rows[page.rows.length - 1];
    if (exhausted || (page.rows.length > limit && walkedTo !== undefined && pageEnd!.lastAt.getTime() > walkedTo.at.getTime())) return page.page;
    walkRows = Math.min(walkRows * 2, sessionWalkMaximumRows);
  }
}

/** Groups the matching calls of some sessions (null: of all) into one page after the cursor. */
async function groupSessions(
  db: SqlClient,
  options: ListActivitySessionsOptions,
  limit: number,
  cursor: SessionCursor | undefined,
  sessionIds: readonly string[] | null,
): Promise<{ page: Page<ActivitySession>; rows: ActivitySession[] }> {
  const sql = new SqlConditions(db.provider);
  addActivityFilters(sql, options);
  sql.add(`"session_id" IS NOT NULL`);
  if (sessionIds !== null) sql.add(`"session_id" IN (${sessionIds.map((id) => sql.parameter(id)).join(", ")})`);
  const groupKey = `"session_id", COALESCE("project_id", ''), COALESCE("api_key_id", ''), COALESCE("user_id", '')`;
  let having = "";
  if (cursor !== undefined) {
    const at = sql.timestamp(cursor.lastAt);
    const atAgain = sql.timestamp(cursor.lastAt);
    const key = [cursor.sessionId, cursor.projectId, cursor.apiKeyId, cursor.userId].map((part) => sql.parameter(part)).join(", ");
    having = `HAVING MAX("occurred_at") < ${at} OR (MAX("occurred_at") = ${atAgain} AND (${groupKey}) < (${key}))`;
  }
  const modelList = db.provider === "postgresql" ? `json_agg(DISTINCT COALESCE("model", "requested_model"))` : `json_group_array(DISTINCT COALESCE("model", "requested_model"))`;
  const rows = await db.queryStatement({
    sql: `SELECT "session_id", "project_id", "api_key_id", "user_id",
      MIN("occurred_at") AS first_at, MAX("occurred_at") AS last_at, COUNT(*) AS call_count,
      SUM(CASE WHEN "status" >= 400 THEN 1 ELSE 0 END) AS error_count,
      SUM("input_tokens") AS input_tokens, SUM("output_tokens") AS output_tokens, SUM("cost_micros") AS cost_micros,
      ${modelList} AS models
      FROM "usage_events" ${sql.where()}
      GROUP BY "session_id", "project_id", "api_key_id", "user_id"
      ${having}
      ORDER BY MAX("occurred_at") DESC, "session_id" DESC, COALESCE("project_id", '') DESC, COALESCE("api_key_id", '') DESC, COALESCE("user_id", '') DESC
      LIMIT ${sql.parameter(limit + 1)}`,
    args: sql.args,
  });
  const sessions = rows.map(
    (row): ActivitySession => ({
      sessionId: String(row.session_id),
      projectId: sqlNullableString(row.project_id),
      apiKeyId: sqlNullableString(row.api_key_id),
      userId: sqlNullableString(row.user_id),
      firstAt: sqlDate(row.first_at)!,
      lastAt: sqlDate(row.last_at)!,
      callCount: sqlNumber(row.call_count),
      errorCount: sqlNumber(row.error_count ?? 0),
      inputTokens: sqlNumber(row.input_tokens ?? 0),
      outputTokens: sqlNumber(row.output_tokens ?? 0),
      costMicros: sqlNumber(row.cost_micros ?? 0),
      models: stringList(row.models).sort(),
    }),
  );
  const hasMore = sessions.length > limit;
  const data = hasMore ? sessions.slice(0, limit) : sessions;
  const last = data[data.length - 1];
  return { page: { data, nextCursor: hasMore && last ? encodeSessionCursor(last) : null }, rows: sessions };
}

/** Options of {@link listActivitySessionCalls}. */
export interface ListActivitySessionCallsOptions {
  organizationId: string;
  visibleProjectIds?: readonly string[] | null;
  sessionId: string;
  /** Narrow to one of the session's isolation keys (a session id is only unique within them). */
  projectId?: string;
  apiKeyId?: string;
  userId?: string;
  limit?: number;
  cursor?: string;
}

/** One session's calls, oldest first (the order they happened in), keyset-paginated. */
export async function listActivitySessionCalls(db: SqlClient, options: ListActivitySessionCallsOptions): Promise<Page<ActivityCall>> {
  const limit = pageSize(options.limit);
  const cursor = options.cursor === undefined ? undefined : decodeTimeCursor(options.cursor);
  const filters: ActivityFilters = {
    organizationId: options.organizationId,
    visibleProjectIds: options.visibleProjectIds ?? null,
    sessionId: options.sessionId,
    ...(options.projectId !== undefined ? { projectId: options.projectId } : {}),
    ...(options.apiKeyId !== undefined ? { apiKeyId: options.apiKeyId } : {}),
    ...(options.userId !== undefined ? { userId: options.userId } : {}),
  };
  return pageOfCalls(await queryCallPage(db, filters, limit + 1, cursor, "asc"), limit);
}
