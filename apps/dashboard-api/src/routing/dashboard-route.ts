import type { Request, Response } from "express";
import type { z } from "zod";
import type { Permission } from "../auth/role-permissions.js";
import type { DashboardPrincipal } from "../auth/dashboard-principal.js";

/** HTTP methods used by dashboard routes. */
export type RouteMethod = "get" | "post" | "patch" | "put" | "delete";

/**
 * Who may call a route: `public` (no session: login, invitation acceptance, OAuth callback),
 * `session` (any signed-in user), or the permission string a signed-in user needs.
 */
export type RouteAccess = "public" | "session" | Permission;

/** One documented response of a route. */
export interface RouteResponse {
  status: number;
  description: string;
  /** JSON body schema; absent for 204. */
  schema?: z.ZodType;
  /** `text/event-stream` as an alternative answer (playground). */
  eventStream?: boolean;
}

/** What a handler answers; `undefined` when it wrote the response itself (streams, redirects). */
export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What a handler receives. */
export interface RouteContext<Params, Query, Body> {
  request: Request;
  response: Response;
  requestId: string;
  params: Params;
  query: Query;
  body: Body;
  /** The signed-in user; present on every route that is not `public`. */
  principal: DashboardPrincipal;
  /** The signed-in user, or null on `public` routes without a session. */
  optionalPrincipal: DashboardPrincipal | null;
}

/** A dashboard route: its contract (for validation, RBAC and OpenAPI) and its handler. */
export interface DashboardRoute {
  method: RouteMethod;
  /** OpenAPI-style path: `/api/api-keys/{api_key_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  access: RouteAccess;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A valid example body (documented in OpenAPI; used by the tests that walk every route). */
  exampleBody?: unknown;
  /** Whether the route writes (audited, origin-checked); defaults to method !== get. */
  responses: RouteResponse[];
  handler: (context: RouteContext<any, any, any>) => Promise<RouteResult | undefined>;
}

/** Typed helper to declare a route: the handler sees parsed params, query and body. */
export function defineRoute<
  Params extends z.ZodObject | undefined = undefined,
  Query extends z.ZodObject | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(
  route: Omit<DashboardRoute, "params" | "query" | "body" | "handler"> & {
    params?: Params;
    query?: Query;
    body?: Body;
    handler: (
      context: RouteContext<
        Params extends z.ZodObject ? z.output<Params> : Record<string, never>,
        Query extends z.ZodObject ? z.output<Query> : Record<string, never>,
        Body extends z.ZodType ? z.output<Body> : undefined
      >,
    ) => Promise<RouteResult | undefined>;
  },
): DashboardRoute {
  return route as DashboardRoute;
}

/** `/api/api-keys/{api_key_id}` -> `/api/api-keys/:api_key_id` (Express syntax). */
export function toExpressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");
}
