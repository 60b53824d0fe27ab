import { periodWindow } from "@gateway/budget";
import {
  budgetAmountMicrosSchema,
  budgetThresholdsSchema,
  createBudget,
  deleteBudget,
  getBudget,
  listBudgets,
  resetBudgetSpend,
  recordedSpendBudget,
  sumRecordedBudgetSpend,
  updateBudget,
  type BudgetRecord,
} from "@gateway/db";
import { z } from "zod";
import { deletedObjectSchema, displayName, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { budgetRuleOf } from "../services/limit-counters.js";
import { assertScopeBelongs, auditChange, found, withConflict } from "./resource-helpers.js";

const scopes = ["organization", "project", "key", "team"] as const;
const periods = ["day", "week", "month", "total"] as const;
const modes = ["hard", "soft"] as const;

/** A budget as the API shows it. */
export const budgetSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(scopes),
  scope_id: z.string(),
  amount_micros: z.number().int().describe("USD * 1e6"),
  period: z.enum(periods),
  mode: z.enum(modes),
  thresholds: z.array(z.number()),
  spend_reset: z
    .object({
      period_key: z.string().describe("The period the reset applies to; a later period counts its whole recorded usage again"),
      baseline_micros: z.number().int().describe("Recorded spend of that period at the reset: it no longer counts"),
      reset_at: timestamp.nullable(),
    })
    .nullable()
    .describe("The last reset of the spend (`POST /api/budgets/{budget_id}/reset`); null if never"),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("budget"),
});

/** Renders a budget. */
export function presentBudget(row: BudgetRecord): z.infer<typeof budgetSchema> {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    scope_id: row.scopeId,
    amount_micros: row.amountMicros,
    period: row.period,
    mode: row.mode,
    thresholds: row.thresholds,
    spend_reset:
      row.spendReset === null
        ? null
        : { period_key: row.spendReset.periodKey, baseline_micros: row.spendReset.baselineMicros, reset_at: row.spendReset.at ? iso(row.spendReset.at) : null },
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "budget",
  };
}

// The bounds the configuration file shares (`@gateway/db`).
const amount = budgetAmountMicrosSchema.describe("USD * 1e6 (e.g. 25000000 = $25)");
const thresholds = budgetThresholdsSchema.describe("Soft-budget notification points as fractions, e.g. [0.5, 0.8, 1]");
const createBody = z.object({
  name: displayName,
  scope: z.enum(scopes),
  scope_id: resourceId,
  amount_micros: amount,
  period: z.enum(periods),
  mode: z.enum(modes),
  thresholds: thresholds.default([0.5, 0.8, 1]),
});
const updateBody = z
  .object({ name: displayName, amount_micros: amount, period: z.enum(periods), mode: z.enum(modes), thresholds })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("budget_id");

/** Budget routes under `/api/budgets`. */
export function createBudgetRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getBudget(services.database, organizationId, id).then((row) => found(row, "Budget"));
  return [
    defineRoute({
      method: "post",
      path: "/api/budgets",
      operationId: "create_budget",
      summary: "Create a budget",
      tag: "Budgets",
      access: "budgets:write",
      body: createBody,
      exampleBody: { name: "monthly cap", scope: "organization", scope_id: "org_example", amount_micros: 25_000_000, period: "month", mode: "soft", thresholds: [0.5, 0.8, 1] },
      responses: [{ status: 201, description: "The budget", schema: budgetSchema }],
      async handler(context) {
        const { principal, body } = context;
        await assertScopeBelongs(services, principal.organization.id, body.scope, body.scope_id);
        const row = await withConflict(
          () =>
            createBudget(services.database, {
              organizationId: principal.organization.id,
              name: body.name,
              scope: body.scope,
              scopeId: body.scope_id,
              amountMicros: body.amount_micros,
              period: body.period,
              mode: body.mode,
              thresholds: body.thresholds,
            }),
          "A budget with this name already exists.",
          "name",
        );
        const after = presentBudget(row);
        await auditChange(services, context, { action: "budget.created", targetType: "budget", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/budgets",
      operationId: "list_budgets",
      summary: "List budgets",
      tag: "Budgets",
      access: "budgets:read",
      responses: [{ status: 200, description: "Budgets", schema: listObjectSchema(budgetSchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listBudgets(services.database, principal.organization.id)).map(presentBudget)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/budgets/{budget_id}",
      operationId: "get_budget",
      summary: "Get a budget",
      tag: "Budgets",
      access: "budgets:read",
      params,
      responses: [{ status: 200, description: "The budget", schema: budgetSchema }],
      async handler({ principal, params: { budget_id } }) {
        return { status: 200, body: presentBudget(await load(principal.organization.id, budget_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/budgets/{budget_id}",
      operationId: "update_budget",
      summary: "Update a budget",
      tag: "Budgets",
      access: "budgets:write",
      params,
      body: updateBody,
      exampleBody: { amount_micros: 50_000_000 },
      responses: [{ status: 200, description: "The budget", schema: budgetSchema }],
      async handler(context) {
        const { principal, params: { budget_id }, body } = context;
        const existing = await load(principal.organization.id, budget_id);
        const row = await withConflict(
          () =>
            updateBudget(services.database, existing.organizationId, existing.id, {
              ...(body.name !== undefined ? { name: body.name } : {}),
              ...(body.amount_micros !== undefined ? { amountMicros: body.amount_micros } : {}),
              ...(body.period !== undefined ? { period: body.period } : {}),
              ...(body.mode !== undefined ? { mode: body.mode } : {}),
              ...(body.thresholds !== undefined ? { thresholds: body.thresholds } : {}),
            }),
          "A budget with this name already exists.",
          "name",
        );
        const after = presentBudget(row);
        await auditChange(services, context, { action: "budget.updated", targetType: "budget", targetId: row.id, before: presentBudget(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/budgets/{budget_id}/reset",
      operationId: "reset_budget_spend",
      summary: "Reset a budget's spend for the current period",
      description:
        "Owners only. From now on the budget's current period counts only spend recorded after the reset: the recorded spend of " +
        "the period so far is kept as `spend_reset.baseline_micros` and subtracted, every gateway moves to a fresh counter rebuilt " +
        "that way (announced like any budget change), and the next period counts in full again. Audited as `budget.reset`.",
      tag: "Budgets",
      access: "budgets:reset",
      params,
      responses: [{ status: 200, description: "The budget with its reset", schema: budgetSchema }],
      async handler(context) {
        const { principal, params: { budget_id } } = context;
        const existing = await load(principal.organization.id, budget_id);
        const now = services.now();
        const window = periodWindow(existing.period, now.getTime());
        // The whole recorded spend of the period (an earlier reset's baseline is not subtracted: the new one replaces it).
        const recorded = await sumRecordedBudgetSpend(services.database, {
          organizationId: existing.organizationId,
          budgets: [recordedSpendBudget({ ...budgetRuleOf(existing), spendReset: null }, window)],
        });
        const row = await resetBudgetSpend(services.database, existing.organizationId, existing.id, {
          periodKey: window.key,
          baselineMicros: recorded.get(existing.id) ?? 0,
          at: now,
        });
        const after = presentBudget(row);
        await auditChange(services, context, { action: "budget.reset", targetType: "budget", targetId: row.id, before: presentBudget(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/budgets/{budget_id}",
      operationId: "delete_budget",
      summary: "Delete a budget",
      tag: "Budgets",
      access: "budgets:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("budget") }],
      async handler(context) {
        const { principal, params: { budget_id } } = context;
        const existing = await load(principal.organization.id, budget_id);
        await deleteBudget(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "budget.deleted", targetType: "budget", targetId: existing.id, before: presentBudget(existing) });
        return { status: 200, body: { id: existing.id, object: "budget", deleted: true } };
      },
    }),
  ];
}
