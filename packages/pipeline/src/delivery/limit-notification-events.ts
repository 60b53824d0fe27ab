import { randomBytes } from "node:crypto";
import type { BudgetThresholdCrossing } from "@gateway/budget";
import type { NotificationEvent } from "./deliver-notification.js";

const eventId = () => `evt_${randomBytes(12).toString("hex")}`;
const usd = (micros: number) => `$${(micros / 1_000_000).toFixed(2)}`;

/**
 * `budget.threshold`: a settlement made a budget's spend reach one of its thresholds (sent
 * once per budget, period and threshold across all instances).
 */
export function createBudgetThresholdEvent(crossing: BudgetThresholdCrossing, options: { now?: Date } = {}): NotificationEvent {
  const percent = Math.round(crossing.threshold * 100);
  return {
    id: eventId(),
    type: "budget.threshold",
    createdAt: options.now ?? new Date(),
    title: `Budget '${crossing.budgetName}' reached ${percent}%`,
    text:
      `The ${crossing.mode} ${crossing.period} budget '${crossing.budgetName}' (${crossing.scope} ${crossing.scopeId}) has spent ` +
      `${usd(crossing.spentMicros)} of ${usd(crossing.amountMicros)} in period ${crossing.periodKey}.`,
    data: {
      budget_id: crossing.budgetId,
      budget_name: crossing.budgetName,
      scope: crossing.scope,
      scope_id: crossing.scopeId,
      mode: crossing.mode,
      period: crossing.period,
      period_key: crossing.periodKey,
      threshold: crossing.threshold,
      threshold_micros: crossing.thresholdMicros,
      amount_micros: crossing.amountMicros,
      spent_micros: crossing.spentMicros,
    },
  };
}

/** `budget.exceeded`: a hard budget refused a call (sent at most once per budget and period). */
export function createBudgetExceededEvent(options: {
  budgetId: string;
  budgetName: string | null;
  scope: string | null;
  periodKey: string | null;
  now?: Date;
}): NotificationEvent {
  const name = options.budgetName ?? options.budgetId;
  return {
    id: eventId(),
    type: "budget.exceeded",
    createdAt: options.now ?? new Date(),
    title: `Budget '${name}' refused a call`,
    text: `The hard budget '${name}'${options.periodKey ? ` (period ${options.periodKey})` : ""} has no room left: calls under it are refused with 424 until the period ends or the budget is raised.`,
    data: { budget_id: options.budgetId, budget_name: options.budgetName, scope: options.scope, period_key: options.periodKey },
  };
}

/** `rate_limit.exceeded`: a rate limit refused a call (sent at most once per limit and window). */
export function createRateLimitExceededEvent(options: {
  limitId: string;
  scope: string | null;
  kind: string | null;
  retryAfterSeconds: number | null;
  now?: Date;
}): NotificationEvent {
  return {
    id: eventId(),
    type: "rate_limit.exceeded",
    createdAt: options.now ?? new Date(),
    title: `Rate limit ${options.limitId} is full`,
    text: `A ${options.scope ?? ""} rate limit (${options.kind ?? "requests"}) refused calls with 429; callers were told to retry after ${options.retryAfterSeconds ?? 1} s.`,
    data: { limit_id: options.limitId, scope: options.scope, kind: options.kind, retry_after_seconds: options.retryAfterSeconds },
  };
}
