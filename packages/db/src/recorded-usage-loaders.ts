import { listAdmittedTokenBuckets } from "./list-admitted-token-buckets.js";
import type { SqlClient } from "./sql-client.js";
import { type RecordedSpendBudget, sumRecordedBudgetSpend } from "./sum-recorded-budget-spend.js";

/** A budget as the recorded-spend question needs it (structurally `@gateway/budget`'s `BudgetRule`). */
export interface RecordedSpendBudgetRule {
  id: string;
  organizationId?: string;
  scope: RecordedSpendBudget["scope"];
  scopeId: string;
  /** The last reset of its spend: the period it was made in and the recorded spend it set aside. */
  spendReset?: { periodKey: string; baselineMicros: number } | null;
}

/** A budget period window (structurally `@gateway/budget`'s `PeriodWindow`). */
export interface RecordedSpendWindow {
  key: string;
  startsAt: number;
  /** `null` for `total` (every day counts). */
  endsAt: number | null;
}

/** A rate limit as the recorded-tokens question needs it (structurally `@gateway/budget`'s `RateLimitRule`). */
export interface RecordedTokensRule {
  id: string;
  organizationId?: string;
  scope: "project" | "key";
  scopeId: string;
}

/**
 * The recorded-spend question for a budget's period: its first day and, when its spend was reset
 * in this very period, the baseline to subtract. The gateway's counter seed, the dashboard's
 * statuses and the reset all ask it this way, so they compute the same figure.
 */
export function recordedSpendBudget(budget: RecordedSpendBudgetRule, window: RecordedSpendWindow): RecordedSpendBudget {
  const reset = budget.spendReset;
  return {
    id: budget.id,
    scope: budget.scope,
    scopeId: budget.scopeId,
    fromDay: window.endsAt === null ? null : new Date(window.startsAt).toISOString().slice(0, 10),
    baselineMicros: reset !== undefined && reset !== null && reset.periodKey === window.key ? reset.baselineMicros : 0,
  };
}

/**
 * The admission controller's loaders (`loadRecordedSpend`, `loadRecordedTokens` of
 * `@gateway/budget`) over this database: a missing budget counter is seeded with
 * {@link sumRecordedBudgetSpend}, a missing token window of an hour or more with
 * {@link listAdmittedTokenBuckets}. The gateway and the dashboard's Redis reader use the same
 * pair, so a counter rebuilt by either holds the same figure. Raw SQL (no Prisma).
 */
export function createRecordedUsageLoaders(db: SqlClient): {
  loadRecordedSpend(budget: RecordedSpendBudgetRule, window: RecordedSpendWindow): Promise<number>;
  loadRecordedTokens(rule: RecordedTokensRule, fromMs: number): Promise<{ time: number; tokens: number }[]>;
} {
  return {
    async loadRecordedSpend(budget, window) {
      if (budget.organizationId === undefined) throw new Error(`Budget ${budget.id} has no organization.`);
      const totals = await sumRecordedBudgetSpend(db, { organizationId: budget.organizationId, budgets: [recordedSpendBudget(budget, window)] });
      return totals.get(budget.id) ?? 0;
    },
    loadRecordedTokens(rule, fromMs) {
      if (rule.organizationId === undefined) return Promise.reject(new Error(`Rate limit ${rule.id} has no organization.`));
      return listAdmittedTokenBuckets(db, { organizationId: rule.organizationId, scope: rule.scope, scopeId: rule.scopeId, from: new Date(fromMs) });
    },
  };
}
