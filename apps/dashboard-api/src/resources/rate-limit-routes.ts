import {
  createRateLimit,
  deleteRateLimit,
  getRateLimit,
  listRateLimits,
  rateLimitConcurrencySchema,
  rateLimitPerWindowSchema,
  rateLimitWindowSecondsSchema,
  updateRateLimit,
  type RateLimitRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { deletedObjectSchema, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { assertScopeBelongs, auditChange, found, withConflict } from "./resource-helpers.js";

const scopes = ["project", "key"] as const;

/** A rate limit as the API shows it. */
export const rateLimitSchema = z.object({
  id: z.string(),
  scope: z.enum(scopes),
  scope_id: z.string(),
  window_seconds: z.number().int(),
  requests_per_window: z.number().int().nullable(),
  tokens_per_window: z.number().int().nullable(),
  concurrency: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("rate_limit"),
});

/** Renders a rate limit. */
export function presentRateLimit(row: RateLimitRecord): z.infer<typeof rateLimitSchema> {
  return {
    id: row.id,
    scope: row.scope,
    scope_id: row.scopeId,
    window_seconds: row.windowSeconds,
    requests_per_window: row.requestsPerWindow,
    tokens_per_window: row.tokensPerWindow,
    concurrency: row.concurrency,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "rate_limit",
  };
}

/** The bounds the configuration file shares (`@gateway/db`). */
const limits = {
  window_seconds: rateLimitWindowSecondsSchema,
  requests_per_window: rateLimitPerWindowSchema.nullable(),
  tokens_per_window: rateLimitPerWindowSchema.nullable(),
  concurrency: rateLimitConcurrencySchema.nullable(),
};
const atLeastOneLimit = (value: { requests_per_window?: number | null; tokens_per_window?: number | null; concurrency?: number | null }) =>
  value.requests_per_window != null || value.tokens_per_window != null || value.concurrency != null;

const createBody = z
  .object({
    scope: z.enum(scopes),
    scope_id: resourceId,
    window_seconds: limits.window_seconds.default(60),
    requests_per_window: limits.requests_per_window.default(null),
    tokens_per_window: limits.tokens_per_window.default(null),
    concurrency: limits.concurrency.default(null),
  })
  .refine(atLeastOneLimit, "Set at least one of requests_per_window, tokens_per_window, concurrency.");
const updateBody = z
  .object(limits)
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("rate_limit_id");

/** Rate limit routes under `/api/rate-limits`. */
export function createRateLimitRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) =>
    getRateLimit(services.database, organizationId, id).then((row) => found(row, "Rate limit"));
  const conflictMessage = "This scope already has a rate limit with this window.";
  return [
    defineRoute({
      method: "post",
      path: "/api/rate-limits",
      operationId: "create_rate_limit",
      summary: "Create a rate limit",
      tag: "Rate limits",
      access: "rate_limits:write",
      body: createBody,
      exampleBody: { scope: "project", scope_id: "proj_example", window_seconds: 60, requests_per_window: 600 },
      responses: [{ status: 201, description: "The rate limit", schema: rateLimitSchema }],
      async handler(context) {
        const { principal, body } = context;
        await assertScopeBelongs(services, principal.organization.id, body.scope, body.scope_id);
        const row = await withConflict(
          () =>
            createRateLimit(services.database, {
              organizationId: principal.organization.id,
              scope: body.scope,
              scopeId: body.scope_id,
              windowSeconds: body.window_seconds,
              requestsPerWindow: body.requests_per_window,
              tokensPerWindow: body.tokens_per_window,
              concurrency: body.concurrency,
            }),
          conflictMessage,
          "window_seconds",
        );
        const after = presentRateLimit(row);
        await auditChange(services, context, { action: "rate_limit.created", targetType: "rate_limit", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/rate-limits",
      operationId: "list_rate_limits",
      summary: "List rate limits",
      tag: "Rate limits",
      access: "rate_limits:read",
      responses: [{ status: 200, description: "Rate limits", schema: listObjectSchema(rateLimitSchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listRateLimits(services.database, principal.organization.id)).map(presentRateLimit)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/rate-limits/{rate_limit_id}",
      operationId: "get_rate_limit",
      summary: "Get a rate limit",
      tag: "Rate limits",
      access: "rate_limits:read",
      params,
      responses: [{ status: 200, description: "The rate limit", schema: rateLimitSchema }],
      async handler({ principal, params: { rate_limit_id } }) {
        return { status: 200, body: presentRateLimit(await load(principal.organization.id, rate_limit_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/rate-limits/{rate_limit_id}",
      operationId: "update_rate_limit",
      summary: "Update a rate limit",
      tag: "Rate limits",
      access: "rate_limits:write",
      params,
      body: updateBody,
      exampleBody: { requests_per_window: 1200 },
      responses: [{ status: 200, description: "The rate limit", schema: rateLimitSchema }],
      async handler(context) {
        const { principal, params: { rate_limit_id }, body } = context;
        const existing = await load(principal.organization.id, rate_limit_id);
        const merged = {
          requests_per_window: body.requests_per_window !== undefined ? body.requests_per_window : existing.requestsPerWindow,
          tokens_per_window: body.tokens_per_window !== undefined ? body.tokens_per_window : existing.tokensPerWindow,
          concurrency: body.concurrency !== undefined ? body.concurrency : existing.concurrency,
        };
        if (!atLeastOneLimit(merged)) {
          throw new GatewayError("invalid_request", { message: "A rate limit needs at least one of requests_per_window, tokens_per_window, concurrency." });
        }
        const row = await withConflict(
          () =>
            updateRateLimit(services.database, existing.organizationId, existing.id, {
              ...(body.window_seconds !== undefined ? { windowSeconds: body.window_seconds } : {}),
              requestsPerWindow: merged.requests_per_window,
              tokensPerWindow: merged.tokens_per_window,
              concurrency: merged.concurrency,
            }),
          conflictMessage,
          "window_seconds",
        );
        const after = presentRateLimit(row);
        await auditChange(services, context, { action: "rate_limit.updated", targetType: "rate_limit", targetId: row.id, before: presentRateLimit(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/rate-limits/{rate_limit_id}",
      operationId: "delete_rate_limit",
      summary: "Delete a rate limit",
      tag: "Rate limits",
      access: "rate_limits:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("rate_limit") }],
      async handler(context) {
        const { principal, params: { rate_limit_id } } = context;
        const existing = await load(principal.organization.id, rate_limit_id);
        await deleteRateLimit(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "rate_limit.deleted", targetType: "rate_limit", targetId: existing.id, before: presentRateLimit(existing) });
        return { status: 200, body: { id: existing.id, object: "rate_limit", deleted: true } };
      },
    }),
  ];
}
