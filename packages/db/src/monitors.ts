import {
  monitorComparators,
  monitorEventKinds,
  monitorMetrics,
  monitorScopeKinds,
  monitorSeverities,
  type MonitorComparator,
  type MonitorEventKind,
  type MonitorMetric,
  type MonitorScopeKind,
  type MonitorSeverity,
} from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import type { DatabaseClient } from "./create-database.js";
import { type SqlClient, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";
import type { SqlStatement } from "./statement-runner.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { afterTimeCursor, decodeTimeCursor, pageSize, requireOneOf, runInTransaction, toPage, translateWrite, type Page } from "./repository-support.js";
import { timeOrderedId } from "./time-ordered-id.js";

/** A monitor rule as stored. */
export interface MonitorRuleRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  metric: MonitorMetric;
  scopeKind: MonitorScopeKind;
  /** null: each value (always null for the organization scope). */
  scopeValue: string | null;
  windowMinutes: number;
  comparator: MonitorComparator;
  threshold: number;
  minCalls: number | null;
  severity: MonitorSeverity;
  channelIds: string[];
  renotifyMinutes: number | null;
  enabled: boolean;
  mutedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields of a rule a caller sets. */
export type MonitorRuleInput = Omit<MonitorRuleRecord, "id" | "createdAt" | "updatedAt">;

/** The stored state of a rule for one scope value ("" when the rule has one value). */
export interface MonitorStateRecord {
  id: string;
  ruleId: string;
  scopeValue: string;
  status: "ok" | "firing" | "resolved";
  value: number | null;
  calls: number;
  since: Date;
  evaluatedAt: Date;
  lastNotifiedAt: Date | null;
}

/** One attempt at a delivery (stored in its `attempts`). */
export interface MonitorDeliveryAttemptRecord {
  attempted_at: string;
  outcome: "delivered" | "failed";
  error: string | null;
}

/** One delivery of a monitor event (stored as JSON on the event; snake_case as the API shows it). */
export interface MonitorDeliveryRecord {
  channel_id: string;
  channel_name: string | null;
  /** pending: not attempted yet or a retry is due at `next_attempt_at`; delivered and failed are final. */
  status: "pending" | "delivered" | "failed";
  error: string | null;
  attempted_at: string | null;
  next_attempt_at: string | null;
  attempts: MonitorDeliveryAttemptRecord[];
}

/** A monitor event as stored. */
export interface MonitorEventRecord {
  id: string;
  ruleId: string;
  organizationId: string;
  kind: MonitorEventKind;
  scopeValue: string;
  severity: MonitorSeverity;
  metric: MonitorMetric;
  comparator: MonitorComparator;
  value: number | null;
  threshold: number;
  windowMinutes: number;
  calls: number;
  windowStart: Date;
  windowEnd: Date;
  activityUrl: string;
  deliveries: MonitorDeliveryRecord[];
  deliveryPending: boolean;
  occurredAt: Date;
}

const deliveriesSchema = z.array(
  z.object({
    channel_id: z.string(),
    channel_name: z.string().nullable(),
    status: z.enum(["pending", "delivered", "failed"]),
    error: z.string().nullable(),
    attempted_at: z.string().nullable(),
    // Events recorded before retries kept no attempts: their one attempt is `attempted_at`.
    next_attempt_at: z.string().nullable().default(null),
    attempts: z.array(z.object({ attempted_at: z.string(), outcome: z.enum(["delivered", "failed"]), error: z.string().nullable() })).default([]),
  }),
);

type RuleRow = Awaited<ReturnType<DatabaseClient["prisma"]["monitorRule"]["findFirstOrThrow"]>>;
type StateRow = Awaited<ReturnType<DatabaseClient["prisma"]["monitorState"]["findFirstOrThrow"]>>;
type EventRow = Awaited<ReturnType<DatabaseClient["prisma"]["monitorEvent"]["findFirstOrThrow"]>>;

const toRule = (row: RuleRow): MonitorRuleRecord => ({
  ...row,
  metric: requireOneOf(monitorMetrics, row.metric, "metric"),
  scopeKind: requireOneOf(monitorScopeKinds, row.scopeKind, "scope.kind"),
  comparator: requireOneOf(monitorComparators, row.comparator, "comparator"),
  severity: requireOneOf(monitorSeverities, row.severity, "severity"),
  channelIds: parseJsonColumn(stringArraySchema, row.channelIds, `monitor_rules ${row.id} channel_ids`),
});

const toState = (row: StateRow): MonitorStateRecord => ({ ...row, status: requireOneOf(["ok", "firing", "resolved"] as const, row.status, "status") });

const toEvent = (row: EventRow): MonitorEventRecord => ({
  ...row,
  kind: requireOneOf(monitorEventKinds, row.kind, "kind"),
  severity: requireOneOf(monitorSeverities, row.severity, "severity"),
  metric: requireOneOf(monitorMetrics, row.metric, "metric"),
  comparator: requireOneOf(monitorComparators, row.comparator, "comparator"),
  deliveries: parseJsonColumn(deliveriesSchema, row.deliveries, `monitor_events ${row.id} deliveries`),
});

function toData(input: Partial<Omit<MonitorRuleInput, "organizationId">>): Record<string, unknown> {
  const data: Record<string, unknown> = { ...input };
  if (input.scopeKind === "organization" && input.scopeValue !== undefined && input.scopeValue !== null) {
    throw new GatewayError("invalid_request", { message: "The organization scope takes no value.", param: "scope.value" });
  }
  if (input.channelIds !== undefined) data.channelIds = [...new Set(input.channelIds)];
  return data;
}

/** Creates a rule (409 on a duplicate name in the organization). */
export async function createMonitorRule(db: DatabaseClient, input: MonitorRuleInput): Promise<MonitorRuleRecord> {
  return toRule(await translateWrite("A monitor with this name", () => db.prisma.monitorRule.create({ data: toData(input) as never })));
}

/** One rule of an organization, or null. */
export async function getMonitorRule(db: DatabaseClient, organizationId: string, id: string): Promise<MonitorRuleRecord | null> {
  const row = await db.prisma.monitorRule.findFirst({ where: { id, organizationId } });
  return row ? toRule(row) : null;
}

/** One rule of an organization by name, or null. */
export async function getMonitorRuleByName(db: DatabaseClient, organizationId: string, name: string): Promise<MonitorRuleRecord | null> {
  const row = await db.prisma.monitorRule.findFirst({ where: { organizationId, name } });
  return row ? toRule(row) : null;
}

/** The rules of an organization, by name. */
export async function listMonitorRules(db: DatabaseClient, organizationId: string): Promise<MonitorRuleRecord[]> {
  return (await db.prisma.monitorRule.findMany({ where: { organizationId }, orderBy: [{ name: "asc" }] })).map(toRule);
}

/** The enabled rules of every organization (what the evaluator reads each minute). */
export async function listEnabledMonitorRules(db: DatabaseClient): Promise<MonitorRuleRecord[]> {
  return (await db.prisma.monitorRule.findMany({ where: { enabled: true }, orderBy: [{ organizationId: "asc" }, { id: "asc" }] })).map(toRule);
}

/**
 * Updates a rule. A change of what is measured (metric, scope, window, comparator, threshold,
 * minimum calls) starts the rule over: its states are dropped, so the next evaluation begins
 * from `ok` (a firing state of the old definition is not carried into the new one).
 */
export async function updateMonitorRule(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  patch: Partial<Omit<MonitorRuleInput, "organizationId">>,
): Promise<MonitorRuleRecord> {
  const redefines = (["metric", "scopeKind", "scopeValue", "windowMinutes", "comparator", "threshold", "minCalls"] as const).some((field) => patch[field] !== undefined);
  return runInTransaction(db, async (transaction) => {
    const existing = await transaction.prisma.monitorRule.findFirst({ where: { id, organizationId } });
    if (existing === null) throw new GatewayError("not_found", { message: "Monitor not found" });
    const scopeKind = patch.scopeKind ?? existing.scopeKind;
    const scopeValue = patch.scopeValue !== undefined ? patch.scopeValue : existing.scopeValue;
    if (scopeKind === "organization" && scopeValue !== null) {
      throw new GatewayError("invalid_request", { message: "The organization scope takes no value.", param: "scope.value" });
    }
    const row = await translateWrite("A monitor with this name", () => transaction.prisma.monitorRule.update({ where: { id }, data: toData(patch) as never }));
    if (redefines) await transaction.prisma.monitorState.deleteMany({ where: { ruleId: id } });
    return toRule(row);
  });
}

/** Mutes a rule until a time (null unmutes). */
export async function setMonitorRuleMute(db: DatabaseClient, organizationId: string, id: string, mutedUntil: Date | null): Promise<MonitorRuleRecord> {
  const result = await db.prisma.monitorRule.updateMany({ where: { id, organizationId }, data: { mutedUntil } });
  if (result.count === 0) throw new GatewayError("not_found", { message: "Monitor not found" });
  return toRule(await db.prisma.monitorRule.findFirstOrThrow({ where: { id } }));
}

/** Deletes a rule with its states and history. */
export async function deleteMonitorRule(db: DatabaseClient, organizationId: string, id: string): Promise<boolean> {
  return (await db.prisma.monitorRule.deleteMany({ where: { id, organizationId } })).count > 0;
}

/** The states of the given rules. */
export async function listMonitorStates(db: DatabaseClient, ruleIds: readonly string[]): Promise<MonitorStateRecord[]> {
  if (ruleIds.length === 0) return [];
  return (await db.prisma.monitorState.findMany({ where: { ruleId: { in: [...ruleIds] } }, orderBy: [{ ruleId: "asc" }, { scopeValue: "asc" }] })).map(toState);
}

/** A page of a rule's events, newest first. */
export async function listMonitorEvents(db: DatabaseClient, ruleId: string, options: { limit?: number; cursor?: string } = {}): Promise<Page<MonitorEventRecord>> {
  const limit = pageSize(options.limit, 100);
  const rows = await db.prisma.monitorEvent.findMany({
    where: { ruleId, ...(options.cursor ? afterTimeCursor("occurredAt", decodeTimeCursor(options.cursor, "cursor")) : {}) },
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  return toPage(rows.map(toEvent), limit, (event) => ({ at: event.occurredAt, id: event.id }));
}

/** Events whose deliveries have not all been attempted yet (the outbox), oldest first. */
export async function listPendingMonitorEvents(db: DatabaseClient, limit = 100): Promise<MonitorEventRecord[]> {
  return (await db.prisma.monitorEvent.findMany({ where: { deliveryPending: true }, orderBy: [{ occurredAt: "asc" }, { id: "asc" }], take: limit })).map(toEvent);
}

/**
 * Claims an event's pending deliveries for sending: true for exactly one caller (the outbox flag
 * is cleared atomically), so two evaluators that both see the event never both send it.
 */
export async function claimMonitorEventDeliveries(db: DatabaseClient, eventId: string): Promise<boolean> {
  return (await db.prisma.monitorEvent.updateMany({ where: { id: eventId, deliveryPending: true }, data: { deliveryPending: false } })).count === 1;
}

/** Records the outcome of an event's deliveries (clears the outbox flag). */
export async function recordMonitorDeliveries(db: DatabaseClient, eventId: string, deliveries: MonitorDeliveryRecord[]): Promise<void> {
  await db.prisma.monitorEvent.update({ where: { id: eventId }, data: { deliveries: deliveries as never, deliveryPending: deliveries.some((delivery) => delivery.status === "pending") } });
}

/** A lease of once-per-cluster work. */
export interface EvaluatorLeaseClaim {
  name: string;
  holder: string;
  now: Date;
  /** How long the lease lasts from `now`. */
  ttlMs: number;
}

/**
 * Takes or renews a lease: true when `holder` holds it until `now + ttlMs` (it held it already,
 * or the row was free or expired). Atomic: a conditional update (or the insert of a missing
 * row, whose primary key lets one of two racing inserts win).
 */
export async function claimEvaluatorLease(db: DatabaseClient, claim: EvaluatorLeaseClaim): Promise<boolean> {
  const expiresAt = new Date(claim.now.getTime() + claim.ttlMs);
  const updated = await db.prisma.evaluatorLease.updateMany({
    where: { name: claim.name, OR: [{ holder: claim.holder }, { expiresAt: { lt: claim.now } }] },
    data: { holder: claim.holder, expiresAt, updatedAt: claim.now },
  });
  if (updated.count > 0) return true;
  try {
    await db.prisma.evaluatorLease.create({ data: { name: claim.name, holder: claim.holder, expiresAt, updatedAt: claim.now } });
    return true;
  } catch (error) {
    if (typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002") return false;
    throw error;
  }
}

/** Gives a lease up (on shutdown), so another process takes over at once. */
export async function releaseEvaluatorLease(db: DatabaseClient, name: string, holder: string): Promise<void> {
  await db.prisma.evaluatorLease.updateMany({ where: { name, holder }, data: { expiresAt: new Date(0) } });
}

/** A change of a state decided by the evaluator. */
export interface MonitorTransition {
  lease: { name: string; holder: string; now: Date };
  ruleId: string;
  scopeValue: string;
  /** The state as the evaluator read it (null: none yet). The write happens only if the row still holds it. */
  expected: Pick<MonitorStateRecord, "status" | "since" | "lastNotifiedAt"> | null;
  next: Pick<MonitorStateRecord, "status" | "value" | "calls" | "since" | "evaluatedAt" | "lastNotifiedAt">;
  /** The event to record with it (its deliveries start `pending`: the outbox). */
  event: Omit<MonitorEventRecord, "id" | "deliveryPending" | "ruleId" | "scopeValue"> | null;
}

/**
 * Writes a state change and its event in ONE transaction, and only while the lease is still
 * held and the state is still what the evaluator read: a second evaluator (an expired holder
 * that wakes up, a restart) cannot record the same firing twice. Returns false when it lost.
 */
export async function applyMonitorTransition(db: DatabaseClient, transition: MonitorTransition): Promise<boolean> {
  return runInTransaction(db, async (transaction) => {
    // The fence: touching our own lease row also serialises with a takeover on PostgreSQL.
    const fenced = await transaction.prisma.evaluatorLease.updateMany({
      where: { name: transition.lease.name, holder: transition.lease.holder, expiresAt: { gt: transition.lease.now } },
      data: { updatedAt: transition.lease.now },
    });
    if (fenced.count === 0) return false;
    const { ruleId, scopeValue, expected, next } = transition;
    if (expected === null) {
      const created = await transaction.prisma.monitorState
        .create({ data: { id: timeOrderedId(), ruleId, scopeValue, ...next } })
        .then(() => true)
        .catch((error: unknown) => {
          if (typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002") return false;
          throw error;
        });
      if (!created) return false;
    } else {
      const updated = await transaction.prisma.monitorState.updateMany({
        where: { ruleId, scopeValue, status: expected.status, since: expected.since, lastNotifiedAt: expected.lastNotifiedAt },
        data: next,
      });
      if (updated.count === 0) return false;
    }
    if (transition.event !== null) {
      const { deliveries, ...event } = transition.event;
      await transaction.prisma.monitorEvent.create({
        data: { id: timeOrderedId(), ruleId, scopeValue, ...event, deliveries: deliveries as never, deliveryPending: deliveries.some((delivery) => delivery.status === "pending") },
      });
    }
    return true;
  });
}

/** A first state of a rule and scope value recorded without an event (see {@link createMonitorStates}). */
export type NewMonitorState = Pick<MonitorStateRecord, "ruleId" | "scopeValue" | "status" | "value" | "calls" | "since" | "evaluatedAt" | "lastNotifiedAt">;

/**
 * Creates first states that record no event, many per statement, in ONE transaction fenced by
 * the lease as {@link applyMonitorTransition} is; a state another writer created meanwhile is
 * kept (not overwritten). Returns how many were created (0 when the lease was lost).
 */
export async function createMonitorStates(db: DatabaseClient, lease: { name: string; holder: string; now: Date }, states: readonly NewMonitorState[]): Promise<number> {
  if (states.length === 0) return 0;
  return runInTransaction(db, async (transaction) => {
    const fenced = await transaction.prisma.evaluatorLease.updateMany({
      where: { name: lease.name, holder: lease.holder, expiresAt: { gt: lease.now } },
      data: { updatedAt: lease.now },
    });
    if (fenced.count === 0) return 0;
    const postgresql = db.provider === "postgresql";
    let created = 0;
    for (let start = 0; start < states.length; start += 200) {
      const args: unknown[] = [];
      const add = (value: unknown, cast: string) => {
        args.push(value);
        return postgresql ? `${sqlPlaceholder(db.provider, args.length)}::${cast}` : sqlPlaceholder(db.provider, args.length);
      };
      const at = (value: Date | null) => add(value === null ? null : sqlTimestamp(db.provider, value), "timestamp(3)");
      const rows = states
        .slice(start, start + 200)
        .map(
          (state) =>
            `(${add(timeOrderedId(), "text")}, ${add(state.ruleId, "text")}, ${add(state.scopeValue, "text")}, ${add(state.status, "text")}, ` +
            `${add(state.value, "double precision")}, ${add(state.calls, "integer")}, ${at(state.since)}, ${at(state.evaluatedAt)}, ${at(state.lastNotifiedAt)})`,
        );
      created += await transaction.prisma.$executeRawUnsafe(
        `INSERT INTO "monitor_states" ("id", "rule_id", "scope_value", "status", "value", "calls", "since", "evaluated_at", "last_notified_at") ` +
          `VALUES ${rows.join(", ")} ON CONFLICT ("rule_id", "scope_value") DO NOTHING`,
        ...args,
      );
    }
    return created;
  });
}

/**
 * Writes the last evaluated value of states that did not change status (no event, so no lease
 * fence: values only). One `UPDATE ... FROM (VALUES ...)` per 200 states.
 */
export async function recordMonitorValues(
  db: SqlClient,
  values: ReadonlyArray<{ ruleId: string; scopeValue: string; value: number | null; calls: number; evaluatedAt: Date }>,
): Promise<void> {
  const statements: SqlStatement[] = [];
  const postgresql = db.provider === "postgresql";
  for (let start = 0; start < values.length; start += 200) {
    const args: unknown[] = [];
    const add = (value: unknown, cast: string) => {
      args.push(value);
      return postgresql ? `${sqlPlaceholder(db.provider, args.length)}::${cast}` : sqlPlaceholder(db.provider, args.length);
    };
    const rows = values.slice(start, start + 200).map(
      (item) =>
        `(${add(item.ruleId, "text")}, ${add(item.scopeValue, "text")}, ${add(item.value, "double precision")}, ${add(item.calls, "integer")}, ${add(sqlTimestamp(db.provider, item.evaluatedAt), "timestamp(3)")})`,
    );
    statements.push({
      sql:
        `WITH "measured" ("rule_id", "scope_value", "value", "calls", "evaluated_at") AS (VALUES ${rows.join(", ")}) ` +
        `UPDATE "monitor_states" SET "value" = "measured"."value", "calls" = "measured"."calls", "evaluated_at" = "measured"."evaluated_at" ` +
        `FROM "measured" WHERE "monitor_states"."rule_id" = "measured"."rule_id" AND "monitor_states"."scope_value" = "measured"."scope_value"`,
      args,
    });
  }
  if (statements.length > 0) await db.runStatements(statements);
}

/**
 * Creates or updates a rule by its name (the configuration file's natural key). Unchanged rules
 * are not written; a changed definition starts the rule over as {@link updateMonitorRule} does.
 * The mute is the dashboard's: the file never sets nor clears it.
 */
export async function upsertMonitorRuleByName(db: DatabaseClient, input: Omit<MonitorRuleInput, "mutedUntil">): Promise<MonitorRuleRecord> {
  const existing = await getMonitorRuleByName(db, input.organizationId, input.name);
  if (existing === null) return createMonitorRule(db, { ...input, mutedUntil: null });
  const { organizationId, ...fields } = input;
  const changed = (Object.keys(fields) as Array<keyof typeof fields>).filter((field) => JSON.stringify(existing[field]) !== JSON.stringify(fields[field]));
  if (changed.length === 0) return existing;
  return updateMonitorRule(db, organizationId, existing.id, Object.fromEntries(changed.map((field) => [field, fields[field]])));
}
