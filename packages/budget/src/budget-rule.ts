import type { BudgetPeriod } from "./period-key.js";

/** Who a budget or rate limit is attached to. */
export type BudgetScope = "organization" | "project" | "key" | "team";

/**
 * A budget. Structurally a subset of the snapshot's `budgets[]` entries, so those can be
 * passed as they are.
 */
export interface BudgetRule {
  id: string;
  /** When present, the budget only applies to callers of this organization. */
  organizationId?: string;
  name?: string;
  scope: BudgetScope;
  /** The id of the organization, project, API key or team the budget is attached to. */
  scopeId: string;
  /** The budget amount in micro-USD (USD × 1e6). */
  amountMicros: number;
  period: BudgetPeriod;
  /** `hard` rejects calls that could exceed it; `soft` only reports threshold crossings. */
  mode: "hard" | "soft";
  /** Fractions of the amount (0.5, 0.8, 1) reported once per period when spend reaches them. */
  thresholds: readonly number[];
}

/**
 * A rate limit. Structurally a subset of the snapshot's `rateLimits[]` entries. `null` leaves
 * that dimension unlimited.
 */
export interface RateLimitRule {
  id: string;
  organizationId?: string;
  scope: "project" | "key";
  scopeId: string;
  /** Sliding window length in seconds (values below 1 are treated as 1). */
  windowSeconds: number;
  requestsPerWindow: number | null;
  tokensPerWindow: number | null;
  concurrency: number | null;
}

/** The caller an admission is for. */
export interface CallerScope {
  organizationId: string;
  projectId: string;
  apiKeyId: string;
  teamId?: string | null;
}

/** Whether a budget applies to the caller (its scope id matches the caller's id at that scope). */
export function budgetAppliesTo(budget: BudgetRule, caller: CallerScope): boolean {
  if (budget.organizationId !== undefined && budget.organizationId !== caller.organizationId) return false;
  switch (budget.scope) {
    case "organization":
      return budget.scopeId === caller.organizationId;
    case "project":
      return budget.scopeId === caller.projectId;
    case "key":
      return budget.scopeId === caller.apiKeyId;
    case "team":
      return caller.teamId !== undefined && caller.teamId !== null && budget.scopeId === caller.teamId;
    default:
      return false;
  }
}

/** Whether a rate limit applies to the caller. */
export function rateLimitAppliesTo(limit: RateLimitRule, caller: CallerScope): boolean {
  if (limit.organizationId !== undefined && limit.organizationId !== caller.organizationId) return false;
  if (limit.scope === "project") return limit.scopeId === caller.projectId;
  if (limit.scope === "key") return limit.scopeId === caller.apiKeyId;
  return false;
}

/** Whether any hard budget applies to the caller (decision calls are then refused). */
export function hasHardBudget(budgets: readonly BudgetRule[], caller: CallerScope): boolean {
  for (const budget of budgets) if (budget.mode === "hard" && budgetAppliesTo(budget, caller)) return true;
  return false;
}
