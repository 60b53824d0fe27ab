import { type AdmissionController, type AdmitInput, periodWindow } from "@gateway/budget";
import { GatewayError } from "@gateway/errors";
import type { NotificationEvent } from "../delivery/deliver-notification.js";
import { createBudgetExceededEvent, createRateLimitExceededEvent } from "../delivery/limit-notification-events.js";
import type { NotificationGate } from "./notification-gate.js";

/**
 * Wraps the admission controller so that refusals raise a notification event: `budget.exceeded`
 * once per hard budget and period, `rate_limit.exceeded` once per limit and window (at least a
 * minute), across instances when Redis is shared. Never delays or changes the refusal.
 */
export function notifyAdmissionRefusals(
  controller: AdmissionController,
  options: {
    /** Lets one notification through per budget period or limit window (across instances with Redis). */
    gate: NotificationGate;
    /** Delivers the event to the organization's notification channels (never awaited). */
    notify: (organizationId: string, event: NotificationEvent) => void;
  },
): AdmissionController {
  const observe = (input: AdmitInput, thrown: unknown) => {
    if (!GatewayError.isInstance(thrown)) return;
    const details = (thrown.details ?? {}) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === "string" ? value : null);
    if (thrown.code === "hard_budget_exceeded") {
      const budgetId = text(details.budget_id);
      if (budgetId === null) return;
      const budget = input.budgets.find((candidate) => candidate.id === budgetId);
      const now = Date.now();
      const endsAt = budget ? periodWindow(budget.period, now).endsAt : null;
      const ttlSeconds = endsAt === null ? 30 * 86_400 : Math.max(60, (Number(endsAt) - now) / 1000);
      const periodKey = text(details.period_key);
      void options.gate.firstTime(`budget.exceeded:${budgetId}:${periodKey ?? ""}`, ttlSeconds).then((first) => {
        if (first) {
          options.notify(
            input.organizationId,
            createBudgetExceededEvent({ budgetId, budgetName: budget?.name ?? null, scope: text(details.scope), periodKey }),
          );
        }
      });
    } else if (thrown.code === "gateway_rate_limit_exceeded") {
      const limitId = text(details.limit_id);
      if (limitId === null) return;
      const limit = input.rateLimits.find((candidate) => candidate.id === limitId);
      const ttlSeconds = Math.max(60, limit?.windowSeconds ?? 60);
      void options.gate.firstTime(`rate_limit.exceeded:${limitId}`, ttlSeconds).then((first) => {
        if (first) {
          options.notify(
            input.organizationId,
            createRateLimitExceededEvent({
              limitId,
              scope: text(details.scope),
              kind: text(details.kind),
              retryAfterSeconds: typeof thrown.retryAfter === "number" ? thrown.retryAfter : null,
            }),
          );
        }
      });
    }
  };
  return {
    ...controller,
    admit: (input) =>
      controller.admit(input).catch((thrown: unknown) => {
        observe(input, thrown);
        throw thrown;
      }),
    admitDecision: (input) =>
      controller.admitDecision(input).catch((thrown: unknown) => {
        observe({ ...input, isDecision: true }, thrown);
        throw thrown;
      }),
  };
}
