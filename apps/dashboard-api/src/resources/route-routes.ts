import {
  createRoute,
  deleteRoute,
  getRoute,
  listConnections,
  listRoutes,
  maxRouteTargets,
  routeAffinityTtlSecondsSchema,
  routeRetryMaxAttemptsSchema,
  routeTargetWeightSchema,
  updateRoute,
  type RouteRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { deletedObjectSchema, idParams, iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

const strategies = ["priority", "weighted", "least-latency"] as const;
const alias = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, "an alias has no slashes: 1-128 letters, digits, '.', '_', ':' or '-'");
const target = z.object({
  model: z.string().regex(/^[^/\s]+\/[^/\s]+\/[^\s]+$/, "a provider-qualified model '<provider>/<vendor>/<model>'").max(400),
  weight: routeTargetWeightSchema.default(1),
});

/** A routing alias as the API shows it. */
export const routeSchema = z.object({
  id: z.string(),
  alias: z.string(),
  strategy: z.enum(strategies),
  targets: z.array(z.object({ model: z.string(), weight: z.number() })),
  affinity: z.object({ enabled: z.boolean(), ttl_seconds: z.number().int() }),
  retry: z.object({ max_attempts: z.number().int() }),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("route"),
});

/** Renders a route. */
export function presentRoute(row: RouteRecord): z.infer<typeof routeSchema> {
  return {
    id: row.id,
    alias: row.alias,
    strategy: row.strategy,
    targets: row.targets.map((item) => ({ model: item.model, weight: item.weight })),
    affinity: { enabled: row.affinity.enabled, ttl_seconds: row.affinity.ttlSeconds },
    retry: { max_attempts: row.retry.maxAttempts },
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "route",
  };
}

// The bounds the configuration file shares (`@gateway/db`).
const affinity = z.object({ enabled: z.boolean(), ttl_seconds: routeAffinityTtlSecondsSchema.default(3600) });
const retry = z.object({ max_attempts: routeRetryMaxAttemptsSchema });
const createBody = z.object({
  alias,
  strategy: z.enum(strategies).default("priority"),
  targets: z.array(target).min(1).max(maxRouteTargets).describe("Provider-qualified models, in priority order"),
  affinity: affinity.default({ enabled: false, ttl_seconds: 3600 }),
  retry: retry.default({ max_attempts: 1 }),
});
const updateBody = z
  .object({ alias, strategy: z.enum(strategies), targets: z.array(target).min(1).max(maxRouteTargets), affinity, retry })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("route_id");

/** Routing alias routes under `/api/routes`. */
export function createRouteRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getRoute(services.database, organizationId, id).then((row) => found(row, "Route"));

  async function assertTargetsKnown(organizationId: string, targets: { model: string }[]): Promise<void> {
    const names = new Set((await listConnections(services.database, organizationId)).map((connection) => connection.name));
    targets.forEach((item, index) => {
      const provider = item.model.split("/")[0]!;
      if (!names.has(provider)) {
        throw new GatewayError("invalid_request", { message: `No connection named '${provider}' in this organization.`, param: `targets[${index}].model` });
      }
    });
  }

  return [
    defineRoute({
      method: "post",
      path: "/api/routes",
      operationId: "create_route",
      summary: "Create a routing alias",
      tag: "Routes",
      access: "routes:write",
      body: createBody,
      exampleBody: { alias: "chat-default", strategy: "priority", targets: [{ model: "demo/demo/echo", weight: 1 }] },
      responses: [{ status: 201, description: "The route", schema: routeSchema }],
      async handler(context) {
        const { principal, body } = context;
        await assertTargetsKnown(principal.organization.id, body.targets);
        const row = await withConflict(
          () =>
            createRoute(services.database, {
              organizationId: principal.organization.id,
              alias: body.alias,
              strategy: body.strategy,
              targets: body.targets,
              affinity: { enabled: body.affinity.enabled, ttlSeconds: body.affinity.ttl_seconds },
              retry: { maxAttempts: body.retry.max_attempts },
            }),
          "A route with this alias already exists.",
          "alias",
        );
        const after = presentRoute(row);
        await auditChange(services, context, { action: "route.created", targetType: "route", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/routes",
      operationId: "list_routes",
      summary: "List routing aliases",
      tag: "Routes",
      access: "routes:read",
      responses: [{ status: 200, description: "Routes", schema: listObjectSchema(routeSchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listRoutes(services.database, principal.organization.id)).map(presentRoute)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/routes/{route_id}",
      operationId: "get_route",
      summary: "Get a routing alias",
      tag: "Routes",
      access: "routes:read",
      params,
      responses: [{ status: 200, description: "The route", schema: routeSchema }],
      async handler({ principal, params: { route_id } }) {
        return { status: 200, body: presentRoute(await load(principal.organization.id, route_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/routes/{route_id}",
      operationId: "update_route",
      summary: "Update a routing alias",
      tag: "Routes",
      access: "routes:write",
      params,
      body: updateBody,
      exampleBody: { strategy: "weighted" },
      responses: [{ status: 200, description: "The route", schema: routeSchema }],
      async handler(context) {
        const { principal, params: { route_id }, body } = context;
        const existing = await load(principal.organization.id, route_id);
        if (body.targets) await assertTargetsKnown(principal.organization.id, body.targets);
        const row = await withConflict(
          () =>
            updateRoute(services.database, existing.organizationId, existing.id, {
              ...(body.alias !== undefined ? { alias: body.alias } : {}),
              ...(body.strategy !== undefined ? { strategy: body.strategy } : {}),
              ...(body.targets !== undefined ? { targets: body.targets } : {}),
              ...(body.affinity !== undefined ? { affinity: { enabled: body.affinity.enabled, ttlSeconds: body.affinity.ttl_seconds } } : {}),
              ...(body.retry !== undefined ? { retry: { maxAttempts: body.retry.max_attempts } } : {}),
            }),
          "A route with this alias already exists.",
          "alias",
        );
        const after = presentRoute(row);
        await auditChange(services, context, { action: "route.updated", targetType: "route", targetId: row.id, before: presentRoute(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/routes/{route_id}",
      operationId: "delete_route",
      summary: "Delete a routing alias",
      tag: "Routes",
      access: "routes:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("route") }],
      async handler(context) {
        const { principal, params: { route_id } } = context;
        const existing = await load(principal.organization.id, route_id);
        await deleteRoute(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "route.deleted", targetType: "route", targetId: existing.id, before: presentRoute(existing) });
        return { status: 200, body: { id: existing.id, object: "route", deleted: true } };
      },
    }),
  ];
}
