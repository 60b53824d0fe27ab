import type { IncomingMessage, ServerResponse } from "node:http";
import type { InferenceCallObserver, ObservedAttemptEnd, SnapshotReloadReason } from "@gateway/pipeline";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { GatewayRequestContext } from "../create-gateway-handler.js";
import type { GatewayRuntimeEvents } from "../create-gateway-runtime.js";
import { createLabelledCounter, createLabelledHistogram } from "./create-labelled-metric.js";

/** Buckets of whole-request and call latencies, in seconds (LLM calls run from milliseconds to minutes). */
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Buckets of the gateway's own time per call, in seconds (its budget is well under a millisecond). */
const overheadBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

const rateLimitCodes = new Set(["gateway_rate_limit_exceeded"]);
const budgetCodes = new Set(["hard_budget_exceeded", "hard_budget_decision_unbounded", "hard_budget_unbounded_request"]);

/** Prometheus metrics of one gateway process (`prom-client`, its own registry). */
export interface GatewayMetrics {
  /** The inference-call observer that feeds the call, upstream, token and cost metrics. */
  observer: InferenceCallObserver;
  /** Runtime facts: snapshot reloads, usage-queue drops and failures, delivery drops. */
  events: GatewayRuntimeEvents;
  /** Counts one HTTP request when its answer is finished (or the client left). */
  observeRequest(request: IncomingMessage, response: ServerResponse, context: GatewayRequestContext): void;
  /** Reads gauges taken at scrape time (usage-queue depth, snapshot age). */
  watch(sources: { usageQueueDepth(): number }): void;
  /** The exposition text (`text/plain; version=0.0.4`). */
  render(): Promise<string>;
  readonly contentType: string;
  registry: Registry;
}

/** `2xx`, `4xx`, ...: a bounded label for a status code. */
export function statusClassOf(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}

/**
 * Creates the gateway's metrics. Labels are bounded by construction: routes as the router knows
 * them (`unmatched` otherwise), endpoint names, connection and model names from the
 * control-plane snapshot (the served model, never the caller's free text), status classes,
 * error codes of the gateway's error table. Never keys, users, organizations or content.
 * The per-request metrics keep plain numbers per label set (read by the registry at scrape time),
 * so an observation costs a map lookup and a few additions.
 */
export function createGatewayMetrics(options: { defaultMetrics?: boolean } = {}): GatewayMetrics {
  const registry = new Registry();
  // Process CPU, memory, GC and event-loop delay (monitorEventLoopDelay: min/max/mean/p50/p90/p99).
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const registers = [registry];

  const httpRequests = createLabelledCounter({ name: "gateway_http_requests_total", help: "HTTP requests answered, by route, method and status class.", labelNames: ["route", "method", "status_class"], registry });
  const httpDuration = createLabelledHistogram({ name: "gateway_http_request_duration_seconds", help: "HTTP request duration until the answer finished (a stream's whole length).", labelNames: ["route", "method", "status_class"], buckets: latencyBuckets, registry });
  let inFlight = 0;
  new Gauge({ name: "gateway_http_requests_in_flight", help: "HTTP requests being answered.", registers, collect() { this.set(inFlight); } });

  const calls = createLabelledCounter({ name: "gateway_calls_total", help: "Inference calls, by endpoint, served connection and model, and status class.", labelNames: ["endpoint", "connection", "model", "status_class"], registry });
  const callErrors = createLabelledCounter({ name: "gateway_call_errors_total", help: "Inference calls that ended in an error, by endpoint and error code.", labelNames: ["endpoint", "error_code"], registry });
  const callDuration = createLabelledHistogram({ name: "gateway_call_duration_seconds", help: "Inference call duration, from the request to the answer's end.", labelNames: ["endpoint", "connection", "model"], buckets: latencyBuckets, registry });
  const timeToFirstByte = createLabelledHistogram({ name: "gateway_call_time_to_first_byte_seconds", help: "From the request to the answer's first byte (a stream's first event).", labelNames: ["endpoint", "connection", "model"], buckets: latencyBuckets, registry });
  const overhead = createLabelledHistogram({ name: "gateway_call_overhead_seconds", help: "The gateway's own time per call that reached a provider: total minus the time spent waiting on upstream attempts and streams (retry backoff counts as overhead).", labelNames: ["endpoint"], buckets: overheadBuckets, registry });
  const rateLimitRejections = createLabelledCounter({ name: "gateway_rate_limit_rejections_total", help: "Calls refused by a rate limit (429).", labelNames: ["endpoint"], registry });
  const budgetRejections = createLabelledCounter({ name: "gateway_budget_rejections_total", help: "Calls refused by a hard budget (424).", labelNames: ["endpoint"], registry });

  const attempts = createLabelledCounter({ name: "gateway_upstream_attempts_total", help: "Upstream attempts, by connection, model, kind (first, retry, fallback) and outcome (ok, error).", labelNames: ["connection", "model", "kind", "outcome"], registry });
  const attemptDuration = createLabelledHistogram({ name: "gateway_upstream_attempt_duration_seconds", help: "One upstream attempt, until its answer (a stream: its headers) or its error.", labelNames: ["connection", "model", "outcome"], buckets: latencyBuckets, registry });
  const upstreamErrors = createLabelledCounter({ name: "gateway_upstream_errors_total", help: "Upstream failures (failed attempts and streams that failed after they started), by error code.", labelNames: ["connection", "model", "error_code"], registry });
  const retries = createLabelledCounter({ name: "gateway_upstream_retries_total", help: "Attempts that retried the same target.", labelNames: ["connection", "model"], registry });
  const fallbacks = createLabelledCounter({ name: "gateway_upstream_fallbacks_total", help: "Attempts that fell back to the route's next target (labelled with that target).", labelNames: ["connection", "model"], registry });

  const tokens = createLabelledCounter({ name: "gateway_tokens_total", help: "Tokens billed, by connection, model and type (input, output, cache_read, cache_write, reasoning).", labelNames: ["connection", "model", "type"], registry });
  const cost = createLabelledCounter({ name: "gateway_cost_usd_total", help: "Cost billed in USD, by connection and model.", labelNames: ["connection", "model"], registry });

  const usageDropped = new Counter({ name: "gateway_usage_events_dropped_total", help: "Usage events dropped (queue full while the database failed, or unwritten at shutdown).", registers });
  const usageWriteFailures = new Counter({ name: "gateway_usage_write_failures_total", help: "Failed usage-event batch writes (retried).", registers });
  const snapshotReloads = new Counter({ name: "gateway_snapshot_reloads_total", help: "Full control-plane snapshot loads, by cause (start, poll, push, refresh, periodic).", labelNames: ["reason"], registers });
  const snapshotDeltas = new Counter({ name: "gateway_snapshot_deltas_total", help: "Control-plane changes applied as deltas (only the changed rows re-read), by cause (poll, push, refresh).", labelNames: ["reason"], registers });
  const snapshotFailures = new Counter({ name: "gateway_snapshot_reload_failures_total", help: "Failed snapshot version checks or reloads (the previous snapshot stays in service).", registers });
  const deliveryDropped = new Counter({ name: "gateway_delivery_dropped_total", help: "Background deliveries dropped from a full queue, by kind (spans, notifications, deliveries).", labelNames: ["kind"], registers });
  const deliveryFailures = new Counter({ name: "gateway_delivery_failures_total", help: "Background deliveries given up after their last attempt, by kind (telemetry, notification).", labelNames: ["kind"], registers });

  let usageQueueDepth: () => number = () => 0;
  let snapshotLoadedAt: number | null = null;
  new Gauge({ name: "gateway_usage_queue_depth", help: "Usage events waiting to be written.", registers, collect() { this.set(usageQueueDepth()); } });
  new Gauge({
    name: "gateway_snapshot_age_seconds",
    help: "Seconds since the control-plane snapshot in service was loaded.",
    registers,
    collect() {
      if (snapshotLoadedAt !== null) this.set((Date.now() - snapshotLoadedAt) / 1000);
    },
  });

  const observer: InferenceCallObserver = {
    callStarted() {
      let upstreamMs = 0;
      return {
        attemptEnded(attempt: ObservedAttemptEnd) {
          const connection = attempt.target.connection.name;
          const model = attempt.target.qualifiedModel;
          const outcome = attempt.error === null ? "ok" : "error";
          const elapsedMs = Math.max(0, attempt.endedAt - attempt.startedAt);
          upstreamMs += elapsedMs;
          attempts(connection, model, attempt.kind, outcome).inc();
          attemptDuration(connection, model, outcome).observe(elapsedMs / 1000);
          if (attempt.kind === "retry") retries(connection, model).inc();
          else if (attempt.kind === "fallback") fallbacks(connection, model).inc();
          if (attempt.error !== null) upstreamErrors(connection, model, attempt.error.code).inc();
        },
        callEnded(end) {
          const { event } = end;
          const connection = end.target?.connection.name ?? "none";
          const model = end.target?.qualifiedModel ?? "none";
          calls(event.endpoint, connection, model, statusClassOf(event.status)).inc();
          callDuration(event.endpoint, connection, model).observe(event.latencyMs / 1000);
          if (event.timeToFirstByteMs !== null) timeToFirstByte(event.endpoint, connection, model).observe(event.timeToFirstByteMs / 1000);
          if (end.error !== null) {
            callErrors(event.endpoint, end.error.code).inc();
            if (rateLimitCodes.has(end.error.code)) rateLimitRejections(event.endpoint).inc();
            else if (budgetCodes.has(end.error.code)) budgetRejections(event.endpoint).inc();
            else if (end.streamed && end.error.code.startsWith("upstream")) upstreamErrors(connection, model, end.error.code).inc();
          }
          if (end.target !== null) {
            const streamMs = end.streamed && end.answeredAt !== null ? Math.max(0, end.endedAt - end.answeredAt) : 0;
            overhead(event.endpoint).observe(Math.max(0, event.latencyMs - upstreamMs - streamMs) / 1000);
            if (event.inputTokens > 0) tokens(connection, model, "input").inc(event.inputTokens);
            if (event.outputTokens > 0) tokens(connection, model, "output").inc(event.outputTokens);
            if (event.cacheReadTokens > 0) tokens(connection, model, "cache_read").inc(event.cacheReadTokens);
            if (event.cacheWriteTokens > 0) tokens(connection, model, "cache_write").inc(event.cacheWriteTokens);
            if (event.reasoningTokens > 0) tokens(connection, model, "reasoning").inc(event.reasoningTokens);
            if (event.costMicros > 0) cost(connection, model).inc(event.costMicros / 1_000_000);
          }
        },
      };
    },
  };

  const events: GatewayRuntimeEvents = {
    snapshotReloaded(reason: SnapshotReloadReason, mode: "full" | "delta" = "full") {
      snapshotLoadedAt = Date.now();
      (mode === "delta" ? snapshotDeltas : snapshotReloads).labels(reason).inc();
    },
    snapshotReloadFailed: () => snapshotFailures.inc(),
    usageEventsDropped: (count) => usageDropped.inc(count),
    usageWriteFailed: () => usageWriteFailures.inc(),
    deliveryDropped: (kind, count) => deliveryDropped.labels(kind).inc(count),
    deliveryFailed: (kind) => deliveryFailures.labels(kind).inc(),
  };

  return {
    observer,
    events,
    observeRequest(request, response, context) {
      inFlight += 1;
      response.once("close", () => {
        inFlight -= 1;
        const method = request.method ?? "OTHER";
        const route = context.route ?? "unmatched";
        const statusClass = statusClassOf(response.statusCode);
        httpRequests(route, method, statusClass).inc();
        httpDuration(route, method, statusClass).observe((Date.now() - context.startedAt) / 1000);
      });
    },
    watch(sources) {
      usageQueueDepth = sources.usageQueueDepth;
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
    registry,
  };
}
