import type { DatabaseClient } from "./create-database.js";
import { AUDIT_ACTOR_KINDS } from "./enums.js";
import { type SqlClient, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";
import { timeOrderedId } from "./time-ordered-id.js";
import { afterTimeCursor, decodeTimeCursor, pageSize, requireOneOf, toPage, type Page } from "./repository-support.js";

/** One change made through the dashboard, the config file or the system. Never put secrets in before/after. */
export interface AuditEventInput {
  organizationId: string | null;
  actorKind: (typeof AUDIT_ACTOR_KINDS)[number];
  actorId?: string | null;
  /** e.g. "api_key.revoke" */
  action: string;
  /** e.g. "api_key" */
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
  ipAddress?: string | null;
  requestId?: string | null;
  occurredAt?: Date;
}

export interface AuditEventRecord {
  id: string;
  organizationId: string | null;
  actorKind: string;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ipAddress: string | null;
  requestId: string | null;
  occurredAt: Date;
}

type Row = Awaited<ReturnType<DatabaseClient["prisma"]["auditEvent"]["findFirstOrThrow"]>>;
const toRecord = (row: Row): AuditEventRecord => ({ ...row, before: row.before ?? null, after: row.after ?? null });

function toData(input: AuditEventInput) {
  return {
    organizationId: input.organizationId,
    actorKind: requireOneOf(AUDIT_ACTOR_KINDS, input.actorKind, "actor_kind"),
    actorId: input.actorId ?? null,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId ?? null,
    ...(input.before === undefined || input.before === null ? {} : { before: input.before as object }),
    ...(input.after === undefined || input.after === null ? {} : { after: input.after as object }),
    ipAddress: input.ipAddress ?? null,
    requestId: input.requestId ?? null,
    occurredAt: input.occurredAt ?? new Date(),
  };
}

/** Appends audit events (one or many). */
export async function appendAuditEvents(db: DatabaseClient, events: AuditEventInput[]): Promise<number> {
  if (events.length === 0) return 0;
  return (await db.prisma.auditEvent.createMany({ data: events.map(toData) })).count;
}

/**
 * Appends one audit event and answers it. With the raw driver (an open `Database`) it is one
 * INSERT there: every dashboard change writes one, and Prisma's query compiler costs more than
 * the row.
 */
export async function appendAuditEvent(db: DatabaseClient | (DatabaseClient & SqlClient), event: AuditEventInput): Promise<AuditEventRecord> {
  const data = toData(event);
  if (!("runStatements" in db)) return toRecord(await db.prisma.auditEvent.create({ data }));
  const record: AuditEventRecord = { id: timeOrderedId(), ...data, before: data.before ?? null, after: data.after ?? null };
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const values = [
    record.id,
    record.organizationId,
    record.actorKind,
    record.actorId,
    record.action,
    record.targetType,
    record.targetId,
    json(record.before),
    json(record.after),
    record.ipAddress,
    record.requestId,
    sqlTimestamp(db.provider, record.occurredAt),
  ];
  const placeholders = values.map((_, index) => `${sqlPlaceholder(db.provider, index + 1)}${db.provider === "postgresql" && (index === 7 || index === 8) ? "::jsonb" : ""}`);
  await db.runStatements([
    {
      sql: `INSERT INTO "audit_events" ("id", "organization_id", "actor_kind", "actor_id", "action", "target_type", "target_id", "before", "after", "ip_address", "request_id", "occurred_at") VALUES (${placeholders.join(", ")})`,
      args: values,
    },
  ]);
  return record;
}

/**
 * Audit events of an organization, newest first, cursor-paginated. `action` and `targetType` match
 * exactly; `actionPrefix` and `targetTypePrefix` match every value that starts with them
 * (`api_key` finds `api_key.created` and `api_key.revoked`).
 */
export async function listAuditEvents(
  db: DatabaseClient,
  options: {
    organizationId: string;
    targetType?: string;
    targetTypePrefix?: string;
    targetId?: string;
    action?: string;
    actionPrefix?: string;
    actorId?: string;
    from?: Date;
    to?: Date;
    limit?: number;
    cursor?: string;
  },
): Promise<Page<AuditEventRecord>> {
  const limit = pageSize(options.limit);
  const where: Record<string, unknown>[] = [{ organizationId: options.organizationId }];
  if (options.targetType) where.push({ targetType: options.targetType });
  if (options.targetTypePrefix) where.push({ targetType: { startsWith: options.targetTypePrefix } });
  if (options.targetId) where.push({ targetId: options.targetId });
  if (options.action) where.push({ action: options.action });
  if (options.actionPrefix) where.push({ action: { startsWith: options.actionPrefix } });
  if (options.actorId) where.push({ actorId: options.actorId });
  if (options.from) where.push({ occurredAt: { gte: options.from } });
  if (options.to) where.push({ occurredAt: { lt: options.to } });
  if (options.cursor) where.push(afterTimeCursor("occurredAt", decodeTimeCursor(options.cursor)));
  const rows = await db.prisma.auditEvent.findMany({ where: { AND: where }, orderBy: [{ occurredAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const page = toPage(rows, limit, (row) => ({ at: row.occurredAt, id: row.id }));
  return { data: page.data.map(toRecord), nextCursor: page.nextCursor };
}
