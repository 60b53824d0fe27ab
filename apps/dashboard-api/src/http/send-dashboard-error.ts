import type { Response } from "express";
import { errorResponseHeaders, type GatewayError, normalizeError, renderDashboardErrorBody } from "@gateway/errors";
import type { DashboardLogger } from "../dashboard-logger.js";

/**
 * Writes any thrown value as the dashboard error body `{error:{code,message,details}}`.
 * Unknown errors become 500 `internal_error` with a generic message; the cause is logged
 * (name and message only), never sent.
 */
export function sendDashboardError(response: Response, value: unknown, logger: DashboardLogger): void {
  const error: GatewayError = normalizeError(value);
  const requestId = String(response.getHeader("x-request-id") ?? "");
  if (error.status >= 500) {
    const cause = error.code === "internal_error" ? (error.cause ?? value) : error.cause;
    // Name and code only: messages of driver errors can carry connection strings or values.
    const causeCode = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
    logger.error("request failed", {
      request_id: requestId,
      code: error.code,
      cause: cause instanceof Error ? cause.name : typeof cause,
      ...(typeof causeCode === "string" ? { cause_code: causeCode } : {}),
      ...(cause instanceof Error && cause.stack ? { at: cause.stack.split("\n").slice(1, 4).map((line) => line.trim()) } : {}),
    });
  }
  if (response.headersSent) {
    response.end();
    return;
  }
  for (const [name, headerValue] of Object.entries(errorResponseHeaders(error))) response.setHeader(name, headerValue);
  response.status(error.status).json(renderDashboardErrorBody(error));
}
