import { randomBytes } from "node:crypto";
import type { RequestListener, Server } from "node:http";
import { createGuardedHttpServer, renderDashboardErrorBody } from "@gateway/errors";

/** How long a request may take to arrive (headers and body) before the dashboard answers 408. */
export const dashboardRequestTimeoutMs = 60_000;

/** A dashboard request id (`req_` and 24 hex digits), as every answer's `x-request-id`. */
export function generateDashboardRequestId(): string {
  return `req_${randomBytes(12).toString("hex")}`;
}

/**
 * The dashboard's HTTP server around its Express app ({@link createGuardedHttpServer}): requests
 * that never reach the app (Node's parser refusals, a request not received within
 * `requestTimeoutMs` (default 60 s), no `Host`, `CONNECT`) are still answered in the dashboard
 * error body with an `x-request-id` and `connection: close`. The timeout covers receiving the
 * request only: an answer (a playground stream) may last longer.
 */
export function createDashboardServer(listener: RequestListener, options: { requestTimeoutMs?: number } = {}): Server {
  return createGuardedHttpServer(listener, {
    requestTimeoutMs: options.requestTimeoutMs ?? dashboardRequestTimeoutMs,
    generateRequestId: generateDashboardRequestId,
    renderErrorBody: (error) => renderDashboardErrorBody(error),
    extraHeaders: { "x-content-type-options": "nosniff", "cache-control": "no-store" },
  });
}
