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
  /**
   * Names the budget's counter generation: a changed version (the budget's amount, period or
   * scope changed, or its spend was reset) starts a fresh counter, seeded from recorded usage.
   * The gateway and the dashboard use the budget's `updated_at` (`budgetCounterVersion`).
   */
  counterVersion?: string | null;
  /** A reset of the spend: in period `periodKey`, `baselineMicros` of recorded spend no longer count. */
  spendReset?: BudgetSpendReset | null;
}

/** What `POST /api/budgets/{id}/reset` recorded: the recorded spend of that period before the reset. */
export interface BudgetSpendReset {
  periodKey: string;
  baselineMicros: number;
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
  /** When the limit was created: a token window rebuilt from recorded usage starts no earlier. */
  createdAt?: Date | null;
}

/** The caller an admission is for. */
export interface CallerScope {
  organizationId: string;
  projectId: string;
  apiKeyId: string;
  teamId?: string | null;
}

/** The counter key of a budget in a period (without the store's prefix): `b:<id>:<periodKey>[:<version>]`. */
export function budgetCounterKey(budget: Pick<BudgetRule, "id" | "counterVersion">, periodKey: string): string {
  const version = budget.counterVersion;
  return version === undefined || version === null || version === "" ? `b:${budget.id}:${periodKey}` : `b:${budget.id}:${periodKey}:${version}`;
}

/** The counter keys of a rate limit (without the store's prefix): request log, token log, concurrency set. */
export function rateLimitCounterKeys(limitId: string): { requestKey: string; tokenKey: string; concurrencyKey: string } {
  return { requestKey: `r:${limitId}:q`, tokenKey: `r:${limitId}:t`, concurrencyKey: `r:${limitId}:c` };
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
