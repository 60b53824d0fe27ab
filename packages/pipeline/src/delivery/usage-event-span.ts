import type { UsageEventRecord } from "@gateway/contracts";
import { type ExportSpan, createSpanId, createTraceId } from "./build-otlp-trace-request.js";

const traceIdPattern = /^[0-9a-f]{32}$/;

/**
 * One usage event as a span (`gateway.<endpoint>`), with OpenTelemetry GenAI attributes
 * (`gen_ai.system`, `gen_ai.request.model`, `gen_ai.usage.*`) and the gateway's
 * attribution (`gateway.organization_id`, `gateway.project_id`, `gateway.api_key_id`,
 * `gateway.user_id`, `gateway.client`, `gateway.session_id`, `gateway.route_id`,
 * `gateway.cost_micros`, `gateway.budget_outcome`, ...). Never carries content. A caller's
 * `X-Request-ID` that is a W3C trace id (32 hex) becomes the span's trace id.
 */
export function usageEventToSpan(event: UsageEventRecord): ExportSpan {
  const attributes = usageEventAttributes(event);
  const traceId = event.traceId !== null && traceIdPattern.test(event.traceId) ? event.traceId : createTraceId();
  return {
    name: `gateway.${event.endpoint}`,
    startTime: event.occurredAt,
    endTime: new Date(event.occurredAt.getTime() + Math.max(0, event.latencyMs)),
    attributes,
    statusCode: event.status >= 400 ? 2 : 1,
    traceId,
    spanId: createSpanId(),
  };
}

/**
 * The span attributes of a usage event: GenAI attributes (`gen_ai.request.model`,
 * `gen_ai.response.model`, `gen_ai.usage.*`, `gen_ai.system` as the connection's name) and the
 * gateway's attribution (`gateway.*`). Never content.
 */
export function usageEventAttributes(event: UsageEventRecord): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {
    "gateway.request_id": event.requestId,
    "gateway.endpoint": event.endpoint,
    "http.response.status_code": event.status,
    "gen_ai.usage.input_tokens": event.inputTokens,
    "gen_ai.usage.output_tokens": event.outputTokens,
    "gateway.usage.cache_read_tokens": event.cacheReadTokens,
    "gateway.usage.cache_write_tokens": event.cacheWriteTokens,
    "gateway.cost_micros": event.costMicros,
    "gateway.latency_ms": event.latencyMs,
  };
  const optional: Record<string, string | number | null> = {
    "gateway.trace_id": event.traceId,
    "gateway.organization_id": event.organizationId,
    "gateway.project_id": event.projectId,
    "gateway.api_key_id": event.apiKeyId,
    "gateway.user_id": event.userId,
    "gen_ai.request.model": event.requestedModel,
    "gateway.route_id": event.routeId,
    "gen_ai.system": event.provider,
    "gen_ai.response.model": event.model,
    "error.type": event.errorCode,
    "gateway.budget_outcome": event.budgetOutcome,
    "gateway.time_to_first_byte_ms": event.timeToFirstByteMs,
    "gateway.client": event.clientLabel,
    "gateway.session_id": event.sessionId,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== null) attributes[key] = value;
  if (event.guardrailFlags.length > 0) attributes["gateway.guardrail_flags"] = event.guardrailFlags.join(",");
  return attributes;
}
