import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ReadinessReport } from "@gateway/pipeline";
import type { GatewayRequestContext, GatewayRequestHook } from "../create-gateway-handler.js";
import type { GatewayJsonLogger } from "../logging/create-gateway-logger.js";
import type { GatewayMetrics } from "./create-gateway-metrics.js";
import type { RequestAnnotation } from "./create-request-annotations.js";

/** Options of {@link createOperationsHook}. */
export interface OperationsHookOptions {
  /** Counts every request (route, method, status class, duration); null: no metrics. */
  metrics: GatewayMetrics | null;
  /** When set, `GET /metrics` on this port answers to `Authorization: Bearer <token>` (401 otherwise); unset: 404. */
  metricsToken?: string | undefined;
  /** Writes one line per request; null: no request lines. */
  logger: GatewayJsonLogger | null;
  /** The organization and project an inference call learnt, for its line. */
  annotationOf?: (requestId: string) => RequestAnnotation | undefined;
  /** Runs the readiness checks. */
  readiness: () => Promise<ReadinessReport>;
}

/**
 * The gateway's operations step, run before routing on every request: counts it and writes its
 * log line when it finished (one listener), and answers `GET /healthz` (the process is up: 200),
 * `GET /readyz` (200 when every check passed, else 503 naming the failed ones; never 500) and,
 * with a token, `GET /metrics`. Inference paths (`/v1/...`) pass after one character test.
 */
export function createOperationsHook(options: OperationsHookOptions): GatewayRequestHook {
  const { metrics, logger } = options;
  const token = options.metricsToken === undefined ? null : Buffer.from(`Bearer ${options.metricsToken}`);
  const observeEnd = (request: IncomingMessage, response: ServerResponse, context: GatewayRequestContext) => {
    if (metrics !== null) metrics.observeRequest(request, response, context);
    if (logger === null) return;
    response.once("close", () => {
      const annotation = options.annotationOf?.(context.requestId);
      logger.request({
        request_id: context.requestId,
        method: request.method ?? "",
        route: context.route ?? "unmatched",
        status: response.statusCode,
        duration_ms: Date.now() - context.startedAt,
        ...annotation,
      });
    });
  };

  return (request, response, context) => {
    observeEnd(request, response, context);
    const url = request.url ?? "/";
    if (url.charCodeAt(1) === 118 /* "v": /v1/... */) return false;
    const method = request.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const queryAt = url.indexOf("?");
    const path = (queryAt === -1 ? url : url.slice(0, queryAt)).toLowerCase().replace(/\/+$/, "");
    switch (path) {
      case "/healthz":
        context.route = "/healthz";
        sendJson(response, 200, { status: "ok" });
        return true;
      case "/readyz":
        context.route = "/readyz";
        options.readiness().then(
          (report) => sendJson(response, report.ready ? 200 : 503, { status: report.ready ? "ready" : "unready", checks: report.checks }),
          () => sendJson(response, 503, { status: "unready", checks: {} }),
        );
        return true;
      case "/metrics": {
        if (token === null || metrics === null) return false;
        context.route = "/metrics";
        const presented = Buffer.from(request.headers.authorization ?? "");
        if (presented.length !== token.length || !timingSafeEqual(presented, token)) {
          response.setHeader("www-authenticate", 'Bearer realm="metrics"');
          sendJson(response, 401, { error: { message: "The metrics token is missing or wrong.", code: "unauthorized" } });
          return true;
        }
        writeMetrics(response, metrics);
        return true;
      }
      default:
        return false;
    }
  };
}

/** Writes the metrics exposition (500-free: a failure to render is a 503). */
export function writeMetrics(response: ServerResponse, metrics: GatewayMetrics): void {
  metrics.render().then(
    (text) => {
      if (response.headersSent || response.destroyed) return;
      response.writeHead(200, { "content-type": metrics.contentType, "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
      response.end(text);
    },
    () => sendJson(response, 503, { error: { message: "The metrics could not be rendered.", code: "service_unavailable" } }),
  );
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  response.end(text);
}
