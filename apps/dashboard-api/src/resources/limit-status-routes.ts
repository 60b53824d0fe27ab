import { periodWindow } from "@gateway/budget";
import { listApiKeys, listBudgets, listDailyUsage, listRateLimits, sumUsageEvents, type BudgetRecord, type DailyUsageRow } from "@gateway/db";
import { z } from "zod";
import { iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";

/** The current period of a budget: what was spent and what remains. */
export const budgetStatusSchema = z.object({
  budget_id: z.string(),
  period_key: z.string().describe("`2026-11-22` (day), `2026-W47` (ISO week), `2026-11` (month) or `total`"),
  period_start: timestamp.nullable().describe("Start of the current period (UTC); null for `total`"),
  period_end: timestamp.nullable().describe("End of the current period (exclusive); null for `total`"),
  amount_micros: z.number().int(),
  spent_micros: z.number().int().describe("Recorded spend of the current period (usage rollups; calls still in flight are not included)"),
  remaining_micros: z.number().int().describe("amount - spent, never below 0"),
  used_fraction: z.number().describe("spent / amount (above 1 when overspent)"),
  thresholds_reached: z.array(z.number()).describe("The budget's thresholds that the spend has reached"),
  object: z.literal("budget.status"),
});

/** The current window of a rate limit: what was recorded and what remains. */
export const rateLimitStatusSchema = z.object({
  rate_limit_id: z.string(),
  window_start: timestamp.describe("now - window_seconds"),
  window_end: timestamp,
  requests: z.number().int().describe("Calls recorded in the window (usage events)"),
  tokens: z.number().int().describe("Tokens recorded in the window (input + output + cache)"),
  requests_remaining: z.number().int().nullable().describe("null when the limit has no request cap"),
  tokens_remaining: z.number().int().nullable().describe("null when the limit has no token cap"),
  object: z.literal("rate_limit.status"),
});

/** The UTC day `YYYY-MM-DD` of an epoch time. */
const dayOf = (timeMs: number) => new Date(timeMs).toISOString().slice(0, 10);

/**
 * `/api/usage/budgets` and `/api/usage/rate-limits`: the current spend of every budget and the
 * current window of every rate limit, from the recorded usage (what a budget or limit screen shows
 * next to its configuration).
 */
export function createLimitStatusRoutes(services: DashboardServices): DashboardRoute[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/usage/budgets",
      operationId: "list_budget_statuses",
      summary: "Current spend of every budget",
      description:
        "Per budget: its current period (UTC day, ISO week, month or total), the recorded spend of that period from the " +
        "usage rollups, what remains and which thresholds were reached. Team budgets sum the spend of the team's keys.",
      tag: "Budgets",
      access: "budgets:read",
      responses: [{ status: 200, description: "One status per budget", schema: listObjectSchema(budgetStatusSchema) }],
      async handler({ principal }) {
        const organizationId = principal.organization.id;
        const budgets = await listBudgets(services.database, organizationId);
        if (budgets.length === 0) return { status: 200, body: fullList([]) };
        const nowMs = services.now().getTime();
        const windows = new Map(budgets.map((budget) => [budget.id, periodWindow(budget.period, nowMs)]));
        const earliest = Math.min(...[...windows.values()].map((window) => window.startsAt));
        // One read of the rollups per day, project and key since the earliest period start.
        const rows = await listDailyUsage(services.database, {
          organizationId,
          ...(earliest > 0 ? { fromDay: dayOf(earliest) } : {}),
          toDay: dayOf(nowMs),
          groupBy: ["project", "key"],
        });
        const needsTeams = budgets.some((budget) => budget.scope === "team");
        const teamOfKey = new Map<string, string | null>();
        if (needsTeams) {
          for (const key of await listApiKeys(services.database, { organizationId, includeRevoked: true })) teamOfKey.set(key.id, key.teamId);
        }
        const inScope = (budget: BudgetRecord, row: DailyUsageRow): boolean => {
          switch (budget.scope) {
            case "organization":
              return true;
            case "project":
              return row.projectId === budget.scopeId;
            case "key":
              return row.apiKeyId === budget.scopeId;
            case "team":
              return row.apiKeyId !== null && teamOfKey.get(row.apiKeyId) === budget.scopeId;
          }
        };
        const statuses = budgets.map((budget) => {
          const window = windows.get(budget.id)!;
          const firstDay = window.endsAt === null ? "" : dayOf(window.startsAt);
          let spent = 0;
          for (const row of rows) if (row.day >= firstDay && inScope(budget, row)) spent += row.costMicros;
          return {
            budget_id: budget.id,
            period_key: window.key,
            period_start: window.endsAt === null ? null : iso(new Date(window.startsAt)),
            period_end: window.endsAt === null ? null : iso(new Date(window.endsAt)),
            amount_micros: budget.amountMicros,
            spent_micros: spent,
            remaining_micros: Math.max(0, budget.amountMicros - spent),
            used_fraction: spent / budget.amountMicros,
            thresholds_reached: budget.thresholds.filter((threshold) => spent >= threshold * budget.amountMicros),
            object: "budget.status" as const,
          };
        });
        return { status: 200, body: fullList(statuses) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/usage/rate-limits",
      operationId: "list_rate_limit_statuses",
      summary: "Current window of every rate limit",
      description:
        "Per rate limit: the calls and tokens recorded in the last `window_seconds` for its project or key (usage events, " +
        "written by the gateways about once a second) and what remains of its caps. Concurrency is not recorded.",
      tag: "Rate limits",
      access: "rate_limits:read",
      responses: [{ status: 200, description: "One status per rate limit", schema: listObjectSchema(rateLimitStatusSchema) }],
      async handler({ principal }) {
        const organizationId = principal.organization.id;
        const now = services.now();
        const limits = await listRateLimits(services.database, organizationId);
        const statuses = await Promise.all(
          limits.map(async (limit) => {
            const from = new Date(now.getTime() - limit.windowSeconds * 1000);
            const totals = await sumUsageEvents(services.database, {
              organizationId,
              from,
              ...(limit.scope === "project" ? { projectId: limit.scopeId } : { apiKeyId: limit.scopeId }),
            });
            return {
              rate_limit_id: limit.id,
              window_start: iso(from),
              window_end: iso(now),
              requests: totals.requestCount,
              tokens: totals.tokens,
              requests_remaining: limit.requestsPerWindow === null ? null : Math.max(0, limit.requestsPerWindow - totals.requestCount),
              tokens_remaining: limit.tokensPerWindow === null ? null : Math.max(0, limit.tokensPerWindow - totals.tokens),
              object: "rate_limit.status" as const,
            };
          }),
        );
        return { status: 200, body: fullList(statuses) };
      },
    }),
  ];
}
