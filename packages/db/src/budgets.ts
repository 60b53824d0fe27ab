import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { BUDGET_MODES, BUDGET_PERIODS, BUDGET_SCOPES } from "./enums.js";
import { numberArraySchema, parseJsonColumn } from "./json-values.js";
import { holdsValues, requireOneOf, translateWrite } from "./repository-support.js";

export interface BudgetRecord {
  id: string;
  organizationId: string;
  name: string;
  scope: (typeof BUDGET_SCOPES)[number];
  scopeId: string;
  /** USD * 1e6 (stored as BigInt, answered as a number). */
  amountMicros: number;
  period: (typeof BUDGET_PERIODS)[number];
  mode: (typeof BUDGET_MODES)[number];
  thresholds: number[];
  /** The last reset of the spend (`resetBudgetSpend`), or null. */
  spendReset: { periodKey: string; baselineMicros: number; at: Date | null } | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface BudgetInput {
  organizationId: string;
  name: string;
  scope: string;
  scopeId: string;
  amountMicros: number;
  period: string;
  mode: string;
  thresholds?: number[];
}

type BudgetRow = Awaited<ReturnType<DatabaseClient["prisma"]["budget"]["findFirstOrThrow"]>>;
const toRecord = ({ spendResetPeriodKey, spendResetBaselineMicros, spendResetAt, ...row }: BudgetRow): BudgetRecord => ({
  ...row,
  spendReset: spendResetPeriodKey === null ? null : { periodKey: spendResetPeriodKey, baselineMicros: Number(spendResetBaselineMicros), at: spendResetAt },
  scope: requireOneOf(BUDGET_SCOPES, row.scope, "scope"),
  amountMicros: Number(row.amountMicros),
  period: requireOneOf(BUDGET_PERIODS, row.period, "period"),
  mode: requireOneOf(BUDGET_MODES, row.mode, "mode"),
  thresholds: parseJsonColumn(numberArraySchema, row.thresholds, `budgets ${row.id} thresholds`),
});

function toData(input: Partial<Omit<BudgetInput, "organizationId">>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.scope !== undefined) data.scope = requireOneOf(BUDGET_SCOPES, input.scope, "scope");
  if (input.scopeId !== undefined) data.scopeId = input.scopeId;
  if (input.amountMicros !== undefined) {
    if (!Number.isSafeInteger(input.amountMicros) || input.amountMicros < 0) {
      throw new GatewayError("invalid_request", { message: "amount must be a non-negative whole number of micro-USD", param: "amount_micros" });
    }
    data.amountMicros = BigInt(input.amountMicros);
  }
  if (input.period !== undefined) data.period = requireOneOf(BUDGET_PERIODS, input.period, "period");
  if (input.mode !== undefined) data.mode = requireOneOf(BUDGET_MODES, input.mode, "mode");
  if (input.thresholds !== undefined) {
    if (!input.thresholds.every((value) => Number.isFinite(value) && value > 0)) {
      throw new GatewayError("invalid_request", { message: "thresholds must be positive fractions such as 0.5, 0.8, 1", param: "thresholds" });
    }
    data.thresholds = [...new Set(input.thresholds)].sort((left, right) => left - right);
  }
  return data;
}

function createData(input: BudgetInput) {
  return { thresholds: [], ...toData(input), organizationId: input.organizationId } as unknown as Parameters<DatabaseClient["prisma"]["budget"]["create"]>[0]["data"];
}

/** Creates a budget; 409 when the name exists in the organization. */
export async function createBudget(db: DatabaseClient, input: BudgetInput): Promise<BudgetRecord> {
  return toRecord(await translateWrite("budget with this name", () => db.prisma.budget.create({ data: createData(input) })));
}

/** Declarative config: creates or replaces the budget with this name. */
export async function upsertBudgetByName(db: DatabaseClient, input: BudgetInput): Promise<BudgetRecord> {
  const { organizationId, ...rest } = input;
  const where = { organizationId_name: { organizationId, name: input.name } };
  const update = toData(rest);
  const existing = await db.prisma.budget.findUnique({ where });
  if (existing && holdsValues(existing, update)) return toRecord(existing);
  return toRecord(await db.prisma.budget.upsert({ where, create: createData(input), update }));
}

export async function listBudgets(db: DatabaseClient, organizationId: string): Promise<BudgetRecord[]> {
  return (await db.prisma.budget.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

export async function getBudget(db: DatabaseClient, organizationId: string, id: string): Promise<BudgetRecord | null> {
  const row = await db.prisma.budget.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

export async function updateBudget(db: DatabaseClient, organizationId: string, id: string, changes: Partial<Omit<BudgetInput, "organizationId">>): Promise<BudgetRecord> {
  return toRecord(await translateWrite("budget", () => db.prisma.budget.update({ where: { id, organizationId }, data: toData(changes) })));
}

export async function deleteBudget(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("budget", () => db.prisma.budget.delete({ where: { id, organizationId } }));
}

/** What {@link resetBudgetSpend} records. */
export interface BudgetSpendResetInput {
  /** The current period's key (`2026-11`). */
  periodKey: string;
  /** The recorded spend of that period now: it no longer counts in that period. */
  baselineMicros: number;
  at: Date;
}

/**
 * Resets a budget's spend for its current period: records the period and the recorded spend
 * that no longer counts there. The row's `updated_at` moves, so every gateway (and the
 * dashboard) starts a fresh counter for the budget, seeded from recorded usage minus the baseline.
 */
export async function resetBudgetSpend(db: DatabaseClient, organizationId: string, id: string, reset: BudgetSpendResetInput): Promise<BudgetRecord> {
  if (!Number.isSafeInteger(reset.baselineMicros) || reset.baselineMicros < 0) throw new RangeError("baselineMicros must be a whole number >= 0");
  return toRecord(
    await translateWrite("budget", () =>
      db.prisma.budget.update({
        where: { id, organizationId },
        data: { spendResetPeriodKey: reset.periodKey, spendResetBaselineMicros: BigInt(reset.baselineMicros), spendResetAt: reset.at },
      }),
    ),
  );
}
