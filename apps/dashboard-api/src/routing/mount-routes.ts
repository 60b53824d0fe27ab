import type { NextFunction, Request, Response, Router } from "express";
import { fromZodError, GatewayError, isZodError } from "@gateway/errors";
import type { z } from "zod";
import type { DashboardPrincipal } from "../auth/dashboard-principal.js";
import { checkRequestOrigin } from "../http/check-request-origin.js";
import { readCookie, sessionCookieName } from "../http/session-cookie.js";
import { type DashboardRoute, toExpressPath } from "./dashboard-route.js";

/** Options of {@link mountRoutes}. */
export interface MountRoutesOptions {
  /** Resolves the session cookie to the signed-in user (null when absent, expired or revoked). */
  resolvePrincipal: (request: Request) => Promise<DashboardPrincipal | null>;
  allowedOrigins: readonly string[];
}

function parsePart(schema: z.ZodType | undefined, value: unknown, prefix: string): unknown {
  if (schema === undefined) return prefix === "body" ? undefined : {};
  const result = schema.safeParse(value ?? (prefix === "body" ? undefined : {}));
  if (result.success) return result.data;
  throw fromZodError(result.error, { paramPrefix: prefix === "body" ? [] : [] });
}

/**
 * Mounts every route of the table on an Express router. Per request, in this order:
 * origin rule for unsafe methods -> session (401 `unauthenticated`) -> permission (403
 * `permission_denied`) -> zod validation of params, query and body (400 `invalid_request`)
 * -> handler. The order puts authentication before validation, so that nothing about a
 * route's input leaks to callers without a session.
 */
export function mountRoutes(router: Router, routes: readonly DashboardRoute[], options: MountRoutesOptions): void {
  for (const route of routes) {
    const handler = async (request: Request, response: Response, next: NextFunction) => {
      try {
        const hasSessionCookie = readCookie(request, sessionCookieName) !== undefined;
        checkRequestOrigin(request, { allowedOrigins: options.allowedOrigins, hasSessionCookie });
        const principal = hasSessionCookie ? await options.resolvePrincipal(request) : null;
        if (route.access !== "public") {
          if (principal === null) throw new GatewayError("unauthenticated");
          if (route.access !== "session" && !principal.permissions.has(route.access)) {
            throw new GatewayError("permission_denied", {
              message: `This action needs the '${route.access}' permission.`,
              details: { permission: route.access, role: principal.role },
            });
          }
        }
        let params: unknown;
        let query: unknown;
        let body: unknown;
        try {
          params = parsePart(route.params, request.params, "params");
          query = parsePart(route.query, request.query, "query");
          body = parsePart(route.body, request.body, "body");
        } catch (error) {
          // An id that cannot exist is simply not found (same answer as another organization's id).
          if (route.params && !route.params.safeParse(request.params).success) throw new GatewayError("not_found");
          throw error;
        }
        const result = await route.handler({
          request,
          response,
          requestId: String(response.getHeader("x-request-id") ?? ""),
          params,
          query,
          body,
          principal: principal as DashboardPrincipal,
          optionalPrincipal: principal,
        });
        if (result === undefined || response.headersSent) return;
        for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value);
        if (result.body === undefined) response.status(result.status).end();
        else response.status(result.status).json(result.body);
      } catch (error) {
        next(isZodError(error) ? fromZodError(error) : error);
      }
    };
    router[route.method](toExpressPath(route.path), handler);
  }
}
