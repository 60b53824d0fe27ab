import type { TelemetryDestinationConfig } from "@gateway/contracts";
import { randomBytes } from "node:crypto";
import { type ExportSpan, buildOtlpTraceRequest } from "./build-otlp-trace-request.js";
import { type DeliveryOutcome, postJson } from "./post-json.js";
import { signWebhookPayload, webhookSignatureHeader } from "./sign-webhook-payload.js";


/** Options of {@link deliverTelemetry}. */
export interface DeliverTelemetryOptions {
  timeoutMs: number;
  /** OTLP `service.name` (default `ai-gateway`). */
  serviceName?: string;
  /** Webhook event type (default `gateway.traces`). */
  eventType?: string;
  now?: Date;
  /** The `fetch` of the delivery (default: the outbound address policy's, see `postJson`). */
  fetch?: typeof fetch | undefined;
  /** The `user-agent` header (default: `postJson`'s). */
  userAgent?: string;
}

/**
 * Sends spans to one telemetry destination: OTLP/HTTP JSON (`ExportTraceServiceRequest`)
 * with the destination's headers, or one signed webhook event `{id, type, created_at,
 * data: {spans}}`. Failures are outcomes, never exceptions.
 */
export async function deliverTelemetry(
  config: TelemetryDestinationConfig,
  spans: ExportSpan[],
  options: DeliverTelemetryOptions,
): Promise<DeliveryOutcome & { reference: string }> {
  const now = options.now ?? new Date();
  if (config.kind === "otlp_http") {
    const body = JSON.stringify(buildOtlpTraceRequest({ serviceName: options.serviceName ?? "ai-gateway", spans }));
    const outcome = await postJson({ url: config.endpoint, body, headers: config.headers ?? {}, timeoutMs: options.timeoutMs, fetch: options.fetch, userAgent: options.userAgent });
    return { ...outcome, reference: spans[0]?.traceId ?? "" };
  }
  const reference = `evt_${randomBytes(12).toString("hex")}`;
  const body = JSON.stringify({
    id: reference,
    type: options.eventType ?? "gateway.traces",
    created_at: now.toISOString(),
    data: {
      spans: spans.map((span) => ({
        name: span.name,
        trace_id: span.traceId ?? null,
        start_time: span.startTime.toISOString(),
        end_time: span.endTime.toISOString(),
        status: span.statusCode === 2 ? "error" : "ok",
        attributes: span.attributes,
      })),
    },
  });
  const signature = signWebhookPayload({ secret: config.secret, body, timestamp: Math.floor(now.getTime() / 1000) });
  const outcome = await postJson({
    url: config.url,
    body,
    headers: { ...config.headers, [webhookSignatureHeader]: signature, "x-gateway-event-id": reference },
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    userAgent: options.userAgent,
  });
  return { ...outcome, reference };
}
