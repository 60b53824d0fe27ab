import type { Admission, AdmissionController, BudgetThresholdCrossing, CallerScope } from "@gateway/budget";
import { normalizeError } from "@gateway/errors";
import type { CallerIdentity } from "./authenticate.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";

/** Input of {@link admitCall}. */
export interface AdmitCallInput {
  admission: AdmissionController;
  snapshot: CompiledSnapshot;
  identity: CallerIdentity;
  /** Upper bound of the call's cost in micro-USD (reserved on hard budgets). */
  estimatedCostMicros: number;
  /** Upper bound of the call's tokens (counted by token rate limits until settle). */
  estimatedTokens: number;
  /** Decision calls cannot cap their output: refused under any hard budget (424). */
  isDecision: boolean;
  /** Lease of reservations and concurrency slots (the call's remaining time plus a margin). */
  leaseMs?: number;
}

/**
 * The admit stage: the rate limits and budgets that apply to the caller (from the snapshot's
 * scope index, so the cost does not grow with the organization's other budgets and limits),
 * checked and recorded atomically by the admission controller (memory or Redis store).
 * Throws 429 `gateway_rate_limit_exceeded` (with `Retry-After`), 424 `hard_budget_exceeded`
 * or `hard_budget_decision_unbounded`, 503 when the store is down under a closed policy.
 */
export function admitCall(input: AdmitCallInput): Promise<Admission> {
  const caller = callerScopeOf(input.identity);
  // One object literal with every field named (no spread of `caller`): a spread makes V8 build
  // the object by transitions on each call (six hidden-class changes per request).
  return input.admission.admit({
    organizationId: caller.organizationId,
    projectId: caller.projectId,
    apiKeyId: caller.apiKeyId,
    teamId: caller.teamId,
    budgets: input.snapshot.budgetIndex.budgetsFor(caller),
    rateLimits: input.snapshot.budgetIndex.rateLimitsFor(caller),
    estimatedCostMicros: Math.max(0, Math.ceil(input.estimatedCostMicros)),
    estimatedTokens: Math.max(0, Math.ceil(input.estimatedTokens)),
    isDecision: input.isDecision,
    ...(input.leaseMs === undefined ? {} : { leaseMs: Math.max(1, Math.ceil(input.leaseMs)) }),
  });
}

/** The scope ids budgets and rate limits are matched against. */
export function callerScopeOf(identity: CallerIdentity): CallerScope {
  return { organizationId: identity.organization.id, projectId: identity.project.id, apiKeyId: identity.apiKey.id, teamId: identity.apiKey.teamId };
}

/**
 * The `budgetOutcome` of a usage event: `rejected:<budgetId>` for a budget refusal,
 * `soft_threshold` when a settlement crossed a threshold, `reserved` when a hard budget held
 * a reservation, else null.
 */
export function describeBudgetOutcome(options: {
  admission?: Admission | null;
  error?: unknown;
  thresholdCrossings?: readonly BudgetThresholdCrossing[];
}): string | null {
  if (options.error !== undefined) {
    const error = normalizeError(options.error);
    if (error.code === "hard_budget_exceeded" || error.code === "hard_budget_decision_unbounded" || error.code === "hard_budget_unbounded_request") {
      const budgetId = error.details?.budget_id ?? error.details?.budgetId;
      return `rejected:${typeof budgetId === "string" ? budgetId : "unknown"}`;
    }
  }
  if (options.thresholdCrossings !== undefined && options.thresholdCrossings.length > 0) return "soft_threshold";
  if (options.admission && options.admission.hardBudgetIds.length > 0) return "reserved";
  return null;
}
