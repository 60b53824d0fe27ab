import { periodWindow } from "@gateway/budget";
import { listBudgets, listRateLimits, sumAdmittedRateLimitUsage, type BudgetRecord, type RateLimitRecord } from "@gateway/db";
import { z } from "zod";
import { iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { budgetRuleOf, recordedBudgetSpend, type LimitFigureSource } from "../services/limit-counters.js";

const sourceSchema = z
  .enum(["shared_counters", "instance_counters", "recorded_usage"])
  .describe(
    "Where the figures come from. `shared_counters`: the gateways' Redis counters, exactly what every instance admits against. " +
      "`instance_counters`: the counters of the gateway running in the dashboard's process (another gateway instance without Redis keeps its own). " +
      "`recorded_usage`: no counter is readable from the dashboard (gateways without Redis in other processes): the recorded usage, " +
      "which each instance's counters are rebuilt from; per instance and approximate while several gateways run without Redis.",
  );

/** The current period of a budget: what was spent and what remains. */
export const budgetStatusSchema = z.object({
  budget_id: z.string(),
  period_key: z.string().describe("`2026-11-22` (day), `2026-W47` (ISO week), `2026-11` (month) or `total`"),
  period_start: timestamp.nullable().describe("Start of the current period (UTC); null for `total`"),
  period_end: timestamp.nullable().describe("End of the current period (exclusive); null for `total`"),
  amount_micros: z.number().int(),
  spent_micros: z
    .number()
    .int()
    .describe(
      "Spend of the current period as admission counts it: the recorded usage of the period (minus a reset's baseline) plus what was " +
        "settled since the counter was rebuilt; the `spent_micros` of a `hard_budget_exceeded` refusal",
    ),
  reserved_micros: z
    .number()
    .int()
    .describe("Reservations of calls in flight (the `reserved_micros` of a refusal); 0 when `source` is `recorded_usage`"),
  remaining_micros: z.number().int().describe("amount - spent - reserved, never below 0"),
  used_fraction: z.number().describe("spent / amount (above 1 when overspent)"),
  thresholds_reached: z.array(z.number()).describe("The budget's thresholds that the spend has reached"),
  spend_reset_at: timestamp.nullable().describe("When the spend was reset in the current period (`POST /api/budgets/{budget_id}/reset`); null if not"),
  source: sourceSchema,
  object: z.literal("budget.status"),
});

/** The current window of a rate limit: what was admitted and what remains. */
export const rateLimitStatusSchema = z.object({
  rate_limit_id: z.string(),
  window_start: timestamp.describe("now - window_seconds (the limiter's sliding window)"),
  window_end: timestamp,
  requests: z.number().int().describe("Calls admitted in the window as the limiter counts them (refused calls are not counted)"),
  tokens: z.number().int().describe("Tokens of the admitted calls in the window (input + output + cache; estimates until a call settles)"),
  concurrent: z.number().int().nullable().describe("Calls in flight under the limit; null when `source` is `recorded_usage`"),
  requests_remaining: z.number().int().nullable().describe("null when the limit has no request cap"),
  tokens_remaining: z.number().int().nullable().describe("null when the limit has no token cap"),
  source: sourceSchema,
  object: z.literal("rate_limit.status"),
});

type BudgetStatus = z.infer<typeof budgetStatusSchema>;

/** The current period of each kind, dated once per page (a page of 1,000 budgets has at most four). */
function currentPeriods(nowMs: number): (period: BudgetRecord["period"]) => { key: string; start: string | null; end: string | null } {
  const periods = new Map<BudgetRecord["period"], { key: string; start: string | null; end: string | null }>();
  return (period) => {
    let current = periods.get(period);
    if (current === undefined) {
      const window = periodWindow(period, nowMs);
      current = {
        key: window.key,
        start: window.endsAt === null ? null : iso(new Date(window.startsAt)),
        end: window.endsAt === null ? null : iso(new Date(window.endsAt)),
      };
      periods.set(period, current);
    }
    return current;
  };
}

function budgetStatus(
  budget: BudgetRecord,
  periodOf: ReturnType<typeof currentPeriods>,
  figures: { spent: number; reserved: number; source: LimitFigureSource },
): BudgetStatus {
  const window = periodOf(budget.period);
  const { spent, reserved } = figures;
  const reset = budget.spendReset !== null && budget.spendReset.periodKey === window.key ? budget.spendReset : null;
  return {
    budget_id: budget.id,
    period_key: window.key,
    period_start: window.start,
    period_end: window.end,
    amount_micros: budget.amountMicros,
    spent_micros: spent,
    reserved_micros: reserved,
    remaining_micros: Math.max(0, budget.amountMicros - spent - reserved),
    used_fraction: budget.amountMicros === 0 ? (spent > 0 ? 1 : 0) : spent / budget.amountMicros,
    thresholds_reached: budget.thresholds.filter((threshold) => spent >= threshold * budget.amountMicros),
    spend_reset_at: reset?.at ? iso(reset.at) : null,
    source: figures.source,
    object: "budget.status",
  };
}

/**
 * `/api/usage/budgets` and `/api/usage/rate-limits`: the figures admission uses. With readable
 * counters (Redis, or the gateway in this process) they are read there, all of them in one read
 * (one Redis pipeline), missing budget counters being rebuilt from recorded usage first (one
 * grouped query); otherwise (or when the counters cannot be reached) the
 * recorded usage, aggregated once for all budgets and once per 400 rate limits.
 */
export function createLimitStatusRoutes(services: DashboardServices): DashboardRoute[] {
  const counters = services.limitCounters;
  const warnFallback = (error: unknown) =>
    services.logger.warn("Reading the admission counters failed; showing recorded usage.", { error: error instanceof Error ? error.message : String(error) });
  return [
    defineRoute({
      method: "get",
      path: "/api/usage/budgets",
      operationId: "list_budget_statuses",
      summary: "Current spend of every budget",
      description:
        "Per budget: its current period (UTC day, ISO week, month or total), the spend admission counts in that period " +
        "(recorded usage of the period minus a reset's baseline, plus what settled since; team budgets sum the team's keys), " +
        "the reservations of calls in flight, what remains and which thresholds were reached; `source` says where the figures come from.",
      tag: "Budgets",
      access: "budgets:read",
      responses: [{ status: 200, description: "One status per budget", schema: listObjectSchema(budgetStatusSchema) }],
      async handler({ principal }) {
        const organizationId = principal.organization.id;
        const budgets = await listBudgets(services.database, organizationId);
        if (budgets.length === 0) return { status: 200, body: fullList([]) };
        const nowMs = services.now().getTime();
        const periods = currentPeriods(nowMs);
        if (counters !== null) {
          try {
            const usages = await counters.reader.readBudgetUsages(budgets.map(budgetRuleOf));
            const statuses = budgets.map((budget, index) =>
              budgetStatus(budget, periods, { spent: usages[index]!.spentMicros, reserved: usages[index]!.reservedMicros, source: counters.source }),
            );
            return { status: 200, body: fullList(statuses) };
          } catch (error) {
            warnFallback(error);
          }
        }
        const recorded = await recordedBudgetSpend(services.database, organizationId, budgets, nowMs);
        const statuses = budgets.map((budget) => budgetStatus(budget, periods, { spent: recorded.get(budget.id) ?? 0, reserved: 0, source: "recorded_usage" }));
        return { status: 200, body: fullList(statuses) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/usage/rate-limits",
      operationId: "list_rate_limit_statuses",
      summary: "Current window of every rate limit",
      description:
        "Per rate limit: the calls and tokens admitted in its sliding window of `window_seconds` as the limiter counts them (refused calls " +
        "are not counted), calls in flight, and what remains of its caps; `source` says where the figures come from. From recorded usage, " +
        "only calls that passed admission since max(window start, the limit's creation) count.",
      tag: "Rate limits",
      access: "rate_limits:read",
      responses: [{ status: 200, description: "One status per rate limit", schema: listObjectSchema(rateLimitStatusSchema) }],
      async handler({ principal }) {
        const organizationId = principal.organization.id;
        const now = services.now();
        const limits = await listRateLimits(services.database, organizationId);
        const windowEnd = iso(now);
        // Dated once per window length (limits share a few: 60 s, 3,600 s, ...).
        const windowStarts = new Map<number, string>();
        const windowStart = (seconds: number) => {
          let start = windowStarts.get(seconds);
          if (start === undefined) windowStarts.set(seconds, (start = iso(new Date(now.getTime() - seconds * 1000))));
          return start;
        };
        const present = (limit: RateLimitRecord, figures: { requests: number; tokens: number; concurrent: number | null; source: LimitFigureSource }) => ({
          rate_limit_id: limit.id,
          window_start: windowStart(limit.windowSeconds),
          window_end: windowEnd,
          requests: figures.requests,
          tokens: figures.tokens,
          concurrent: figures.concurrent,
          requests_remaining: limit.requestsPerWindow === null ? null : Math.max(0, limit.requestsPerWindow - figures.requests),
          tokens_remaining: limit.tokensPerWindow === null ? null : Math.max(0, limit.tokensPerWindow - figures.tokens),
          source: figures.source,
          object: "rate_limit.status" as const,
        });
        if (limits.length === 0) return { status: 200, body: fullList([]) };
        if (counters !== null) {
          try {
            const usages = await counters.reader.readRateLimitUsages(limits);
            return { status: 200, body: fullList(limits.map((limit, index) => present(limit, { ...usages[index]!, source: counters.source }))) };
          } catch (error) {
            warnFallback(error);
          }
        }
        const totals = await sumAdmittedRateLimitUsage(services.database, {
          organizationId,
          limits: limits.map((limit) => ({
            id: limit.id,
            scope: limit.scope,
            scopeId: limit.scopeId,
            from: new Date(Math.max(now.getTime() - limit.windowSeconds * 1000, limit.createdAt.getTime())),
          })),
        });
        return {
          status: 200,
          body: fullList(limits.map((limit) => present(limit, { ...totals.get(limit.id)!, concurrent: null, source: "recorded_usage" }))),
        };
      },
    }),
  ];
}
