import { type SqlClient, sqlNumber, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

const DAY_MS = 86_400_000;
/** `projects.activity_retention_days`'s default, also the retention of events without a project. */
export const defaultActivityRetentionDays = 30;
/** Serializes partition maintenance across gateway instances (a transaction-scoped advisory lock). */
const PARTITION_LOCK_KEY = 7_262_027;
const PARTITION_NAME = /^usage_events_p(\d{4})(\d{2})(\d{2})$/;

/** Options of the usage maintenance functions. */
export interface UsageMaintenanceOptions {
  /** Default: the current time. */
  now?: Date;
  /** PostgreSQL: days of partitions created ahead of today (default 7). */
  daysAhead?: number;
  /** Rows deleted per statement by the retention sweep (default 5000 on PostgreSQL, 500 on SQLite). */
  batchSize?: number;
}

/** What one maintenance run did. */
export interface UsageMaintenanceResult {
  /** PostgreSQL: day partitions created. */
  createdPartitions: string[];
  /** PostgreSQL: day partitions dropped (older than the longest retention of all projects). */
  droppedPartitions: string[];
  /** Events deleted row by row (projects with a shorter retention than the longest; SQLite: all). */
  deletedEvents: number;
  /** Captured contents deleted (past `expires_at`). */
  deletedContents: number;
}

const utcDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;
const dayLiteral = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * PostgreSQL: creates the `usage_events` day partitions from yesterday to `daysAhead` days ahead
 * (rows that arrived in the default partition for one of those days move into it). Idempotent and
 * safe from several gateways at once. Returns the partitions it created; nothing on SQLite.
 */
export async function ensureUsageEventPartitions(db: SqlClient, options: UsageMaintenanceOptions = {}): Promise<string[]> {
  if (db.provider !== "postgresql") return [];
  const today = utcDay((options.now ?? new Date()).getTime());
  const days: string[] = [];
  for (let offset = -1; offset <= (options.daysAhead ?? 7); offset += 1) days.push(dayLiteral(today + offset * DAY_MS));
  const existing = new Set(await listUsageEventPartitions(db));
  const missing = days.filter((day) => !existing.has(`usage_events_p${day.replaceAll("-", "")}`));
  if (missing.length === 0) return [];
  await db.runStatements([
    { sql: `SELECT pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`, args: [] },
    ...missing.map((day) => ({ sql: `SELECT "usage_events_ensure_partition"($1::date)`, args: [day] })),
  ]);
  return missing.map((day) => `usage_events_p${day.replaceAll("-", "")}`);
}

/** PostgreSQL: the day partitions of `usage_events` (names), oldest first. */
export async function listUsageEventPartitions(db: SqlClient): Promise<string[]> {
  if (db.provider !== "postgresql") return [];
  const rows = await db.queryStatement({
    sql: `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"usage_events"'::regclass ORDER BY c.relname`,
    args: [],
  });
  return rows.map((row) => String(row.name)).filter((name) => PARTITION_NAME.test(name));
}

/**
 * Retention of usage history: deletes captured contents past their `expires_at`; on PostgreSQL
 * drops whole day partitions older than the longest `activity_retention_days` of all projects;
 * then deletes, in batches, the events of projects with a shorter retention (on SQLite, every
 * expired event). Events without a (still existing) project keep the longest retention.
 * Hourly and daily rollups are kept (the Usage charts read them for longer ranges).
 */
export async function sweepUsageRetention(db: SqlClient, options: UsageMaintenanceOptions = {}): Promise<Omit<UsageMaintenanceResult, "createdPartitions">> {
  const now = (options.now ?? new Date()).getTime();
  // SQLite deletes run on the calling thread: small batches, each its own statement, so the event loop breathes between them.
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? (db.provider === "sqlite" ? 500 : 5000)));
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  const deletedContents = await deleteInBatches(db, {
    sql: `DELETE FROM "usage_event_contents" WHERE ("organization_id", "request_id") IN (SELECT "organization_id", "request_id" FROM "usage_event_contents" WHERE "expires_at" <= ${p(1)} LIMIT ${batchSize}) RETURNING "request_id"`,
    args: [sqlTimestamp(db.provider, new Date(now))],
  }, batchSize);

  const retentionRows = await db.queryStatement({ sql: `SELECT DISTINCT "activity_retention_days" AS days FROM "projects"`, args: [] });
  const retentions = retentionRows.map((row) => Math.max(1, sqlNumber(row.days))).sort((left, right) => left - right);
  const longest = Math.max(defaultActivityRetentionDays, ...retentions);

  const droppedPartitions: string[] = [];
  if (db.provider === "postgresql") {
    // A partition holds one UTC day: drop it when its whole day is older than the longest retention.
    const cutoff = now - longest * DAY_MS;
    for (const name of await listUsageEventPartitions(db)) {
      const [, year, month, day] = PARTITION_NAME.exec(name)!;
      if (Date.UTC(Number(year), Number(month) - 1, Number(day)) + DAY_MS <= cutoff) droppedPartitions.push(name);
    }
    if (droppedPartitions.length > 0) {
      await db.runStatements([
        { sql: `SELECT pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`, args: [] },
        ...droppedPartitions.map((name) => ({ sql: `DROP TABLE IF EXISTS "${name}"`, args: [] })),
      ]);
    }
  }

  let deletedEvents = 0;
  const deleteOlder = (condition: string, days: number, extra: unknown[]) =>
    deleteInBatches(db, {
      sql: `DELETE FROM "usage_events" WHERE ("id", "occurred_at") IN (SELECT "id", "occurred_at" FROM "usage_events" WHERE "occurred_at" < ${p(1)} AND ${condition} LIMIT ${batchSize}) RETURNING "id"`,
      args: [sqlTimestamp(db.provider, new Date(now - days * DAY_MS)), ...extra],
    }, batchSize);
  for (const days of retentions) {
    if (days >= longest) continue;
    deletedEvents += await deleteOlder(`"project_id" IN (SELECT "id" FROM "projects" WHERE "activity_retention_days" = ${p(2)})`, days, [days]);
  }
  // Everything else (longest retention): on PostgreSQL mostly gone with its partitions already.
  deletedEvents += await deleteOlder("1 = 1", longest, []);
  return { droppedPartitions, deletedEvents, deletedContents };
}

async function deleteInBatches(db: SqlClient, statement: { sql: string; args: unknown[] }, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.queryStatement(statement);
    total += rows.length;
    if (rows.length < batchSize) return total;
  }
}

/**
 * The periodic usage maintenance (the gateway runs it every few minutes): partitions ahead, then
 * the retention sweep.
 */
export async function runUsageMaintenance(db: SqlClient, options: UsageMaintenanceOptions = {}): Promise<UsageMaintenanceResult> {
  const createdPartitions = await ensureUsageEventPartitions(db, options);
  return { createdPartitions, ...(await sweepUsageRetention(db, options)) };
}
