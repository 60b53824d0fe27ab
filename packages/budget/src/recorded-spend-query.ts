import type { BudgetRule } from "./budget-rule.js";
import type { PeriodWindow } from "./period-key.js";

/** What to sum for a budget's recorded spend in a period (`@gateway/db`'s `sumRecordedBudgetSpend` input). */
export interface RecordedSpendQuery {
  id: string;
  scope: BudgetRule["scope"];
  scopeId: string;
  /** First UTC day of the period (`YYYY-MM-DD`); null for `total`. */
  fromDay: string | null;
  /** The reset baseline when the budget was reset in this very period, else 0. */
  baselineMicros: number;
}

/**
 * The recorded-spend question for a budget's period: its days and, when its spend was reset
 * in this period, the baseline to subtract. The gateway's counter seed and the dashboard's
 * status both build it here, so they compute the same figure.
 */
export function recordedSpendQuery(budget: BudgetRule, window: PeriodWindow): RecordedSpendQuery {
  const reset = budget.spendReset;
  return {
    id: budget.id,
    scope: budget.scope,
    scopeId: budget.scopeId,
    fromDay: window.endsAt === null ? null : new Date(window.startsAt).toISOString().slice(0, 10),
    baselineMicros: reset !== undefined && reset !== null && reset.periodKey === window.key ? reset.baselineMicros : 0,
  };
}
