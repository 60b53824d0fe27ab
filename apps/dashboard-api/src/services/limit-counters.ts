import { type AdmissionController, type BudgetRule, createAdmissionController, createRedisStore, periodWindow } from "@gateway/budget";
import { budgetCounterVersion, createRecordedUsageLoaders, recordedSpendBudget, sumRecordedBudgetSpend, type BudgetRecord, type SqlClient } from "@gateway/db";
import type { Redis } from "ioredis";
import { batchRecordedSpend } from "./batch-recorded-spend.js";

/**
 * Where the budget and rate-limit figures of the status endpoints come from:
 * - `shared_counters`: the gateways' Redis counters (what every instance admits against);
 * - `instance_counters`: the in-memory counters of the gateway in this process (`pnpm start`);
 *   another gateway instance without Redis keeps its own;
 * - `recorded_usage`: no counter is readable here: the recorded usage (per instance and approximate
 *   when several gateways run without Redis).
 */
export type LimitFigureSource = "shared_counters" | "instance_counters" | "recorded_usage";

/** The admission counters the dashboard reads (a gateway's controller, or one of its own over Redis). */
export interface LimitCounters {
  reader: Pick<AdmissionController, "readBudgetUsages" | "readRateLimitUsages">;
  source: "shared_counters" | "instance_counters";
}

/**
 * Reads the gateways' Redis counters (same key prefix). A budget counter (or a token window of
 * an hour or more) that is missing is rebuilt from the recorded usage here exactly as a gateway
 * would rebuild it, so the figure equals the one the next admission uses (the budgets missing in
 * one read are rebuilt with one grouped query: {@link batchRecordedSpend}).
 */
export function createRedisLimitCounters(options: { redis: Redis; keyPrefix: string; database: SqlClient }): LimitCounters {
  const store = createRedisStore({ redis: options.redis, keyPrefix: options.keyPrefix });
  const { loadRecordedTokens } = createRecordedUsageLoaders(options.database);
  // Missing budget counters found by one status read are rebuilt with one grouped query.
  const loadRecordedSpend = batchRecordedSpend((organizationId, budgets) => sumRecordedBudgetSpend(options.database, { organizationId, budgets }));
  const reader = createAdmissionController({ store, loadRecordedSpend, loadRecordedTokens });
  return { reader, source: "shared_counters" };
}

/** A stored budget as the admission controller sees it (the same counter version and reset as the gateway's snapshot). */
export function budgetRuleOf(record: BudgetRecord): BudgetRule {
  return {
    id: record.id,
    organizationId: record.organizationId,
    name: record.name,
    scope: record.scope,
    scopeId: record.scopeId,
    amountMicros: record.amountMicros,
    period: record.period,
    mode: record.mode,
    thresholds: record.thresholds,
    counterVersion: budgetCounterVersion(record.updatedAt),
    spendReset: record.spendReset === null ? null : { periodKey: record.spendReset.periodKey, baselineMicros: record.spendReset.baselineMicros },
  };
}

/** The recorded spend of budgets in their current periods (one query): the `recorded_usage` figure and the reset baseline. */
export async function recordedBudgetSpend(database: SqlClient, organizationId: string, budgets: readonly BudgetRecord[], nowMs: number): Promise<Map<string, number>> {
  return sumRecordedBudgetSpend(database, {
    organizationId,
    budgets: budgets.map((budget) => recordedSpendBudget(budgetRuleOf(budget), periodWindow(budget.period, nowMs))),
  });
}
