import { listDailyUsage, listUsageEvents } from "@gateway/db";
import { z } from "zod";
import { iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema, pageOf, paginationQueryShape } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";

/** One usage event (one gateway call). */
export const usageEventSchema = z.object({
  id: z.string(),
  request_id: z.string(),
  trace_id: z.string().nullable(),
  occurred_at: timestamp,
  project_id: z.string().nullable(),
  api_key_id: z.string().nullable(),
  user_id: z.string().nullable(),
  endpoint: z.string(),
  requested_model: z.string().nullable(),
  route_id: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  status: z.number().int(),
  error_code: z.string().nullable(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  cost_micros: z.number().int(),
  budget_outcome: z.string().nullable(),
  latency_ms: z.number().int(),
  time_to_first_byte_ms: z.number().int().nullable(),
  client_label: z.string().nullable(),
  session_id: z.string().nullable(),
  guardrail_flags: z.array(z.string()),
  object: z.literal("usage.event"),
});

/** One row of daily totals. */
export const usageDailySchema = z.object({
  day: z.string().describe("UTC day YYYY-MM-DD"),
  group_by: z.enum(["project", "api_key", "model"]),
  key: z.string().describe("The project id, API key id or `<provider>/<model>`; empty when unknown"),
  request_count: z.number().int(),
  error_count: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  cost_micros: z.number().int(),
  object: z.literal("usage.daily_total"),
});

const dateTime = z.iso.datetime({ offset: true });
const eventsQuery = z.object({
  ...paginationQueryShape,
  from: dateTime.optional().describe("Inclusive lower bound of occurred_at (ISO 8601)"),
  to: dateTime.optional().describe("Exclusive upper bound of occurred_at (ISO 8601)"),
  project_id: resourceId.optional(),
  api_key_id: resourceId.optional(),
  model: z.string().max(400).optional().describe("Served model (as recorded), requested model, or `<provider>/<model>` as in the daily totals"),
  status: z
    .union([z.enum(["success", "error"]), z.coerce.number().int().min(100).max(599)])
    .optional()
    .describe("An HTTP status, or `success` (< 400) / `error` (>= 400)"),
});
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a UTC day YYYY-MM-DD");
const dailyQuery = z.object({
  group_by: z.enum(["project", "api_key", "model"]).default("project"),
  from: day.optional().describe("First day, inclusive (default: 30 days ago)"),
  to: day.optional().describe("Last day, inclusive (default: today)"),
  project_id: resourceId.optional(),
  api_key_id: resourceId.optional(),
  model: z.string().max(400).optional().describe("`<provider>/<model>` as in the totals"),
});

/** Usage routes: `/api/usage/events` and `/api/usage/daily`. */
export function createUsageRoutes(services: DashboardServices): DashboardRoute[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/usage/events",
      operationId: "list_usage_events",
      summary: "List usage events",
      description: "Newest first. Filters: `from`/`to`, `project_id`, `api_key_id`, `model`, `status`. Cursor pagination.",
      tag: "Usage",
      access: "usage:read",
      query: eventsQuery,
      responses: [{ status: 200, description: "A page of events", schema: listObjectSchema(usageEventSchema) }],
      async handler({ principal, query }) {
        const page = await listUsageEvents(services.database, {
          organizationId: principal.organization.id,
          ...(query.from ? { from: new Date(query.from) } : {}),
          ...(query.to ? { to: new Date(query.to) } : {}),
          ...(query.project_id ? { projectId: query.project_id } : {}),
          ...(query.api_key_id ? { apiKeyId: query.api_key_id } : {}),
          ...(query.model ? { model: query.model } : {}),
          ...(query.status !== undefined ? { status: query.status } : {}),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        });
        return {
          status: 200,
          body: pageOf(page, (row) => ({
            id: row.id,
            request_id: row.requestId,
            trace_id: row.traceId,
            occurred_at: iso(row.occurredAt),
            project_id: row.projectId,
            api_key_id: row.apiKeyId,
            user_id: row.userId,
            endpoint: row.endpoint,
            requested_model: row.requestedModel,
            route_id: row.routeId,
            provider: row.provider,
            model: row.model,
            status: row.status,
            error_code: row.errorCode,
            input_tokens: row.inputTokens,
            output_tokens: row.outputTokens,
            cache_read_tokens: row.cacheReadTokens,
            cache_write_tokens: row.cacheWriteTokens,
            cost_micros: row.costMicros,
            budget_outcome: row.budgetOutcome,
            latency_ms: row.latencyMs,
            time_to_first_byte_ms: row.timeToFirstByteMs,
            client_label: row.clientLabel,
            session_id: row.sessionId,
            guardrail_flags: row.guardrailFlags,
            object: "usage.event" as const,
          })),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/usage/daily",
      operationId: "list_usage_daily_totals",
      summary: "Daily usage totals",
      description: "Totals per UTC day and per project, API key or model (`group_by`), oldest day first, from the rollups the gateway maintains.",
      tag: "Usage",
      access: "usage:read",
      query: dailyQuery,
      responses: [{ status: 200, description: "Daily totals", schema: listObjectSchema(usageDailySchema) }],
      async handler({ principal, query }) {
        const today = services.now().toISOString().slice(0, 10);
        const from = query.from ?? new Date(services.now().getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
        const to = query.to ?? today;
        const dimension = query.group_by === "project" ? "project" : query.group_by === "api_key" ? "key" : "model";
        const field = query.group_by === "project" ? "projectId" : query.group_by === "api_key" ? "apiKeyId" : "model";
        const totals = await listDailyUsage(services.database, {
          organizationId: principal.organization.id,
          fromDay: from,
          toDay: to,
          ...(query.project_id ? { projectId: query.project_id } : {}),
          ...(query.api_key_id ? { apiKeyId: query.api_key_id } : {}),
          ...(query.model ? { model: query.model } : {}),
          groupBy: [dimension],
        });
        const rows = totals.map((total) => ({
          day: total.day,
          group_by: query.group_by,
          key: total[field] ?? "",
          request_count: total.requestCount,
          error_count: total.errorCount,
          input_tokens: total.inputTokens,
          output_tokens: total.outputTokens,
          cache_read_tokens: total.cacheReadTokens,
          cache_write_tokens: total.cacheWriteTokens,
          cost_micros: total.costMicros,
          object: "usage.daily_total" as const,
        }));
        return { status: 200, body: fullList(rows) };
      },
    }),
  ];
}
