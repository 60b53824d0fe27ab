import {
  GatewayError,
  ProviderPassthroughError,
  errorResponseHeaders,
  normalizeError,
  renderAnthropicErrorBody,
  renderGatewayErrorBody,
} from "@gateway/errors";
import type { PipelineJsonResponse } from "./pipeline-response.js";

/** Which error body an endpoint answers with. */
export type ErrorFormat = "gateway" | "anthropic";

/**
 * Turns any thrown value into the HTTP answer of an inference endpoint:
 * - a native provider's own non-2xx answer passes through with its status and JSON payload;
 * - 5xx gateway failures never carry internals (generic message, no details);
 * - `Retry-After` is set as the error gives it; `x-request-id` is always set.
 */
export function renderErrorResponse(
  thrown: unknown,
  options: { requestId: string; format?: ErrorFormat },
): PipelineJsonResponse {
  const error = normalizeError(thrown);
  const headers: Record<string, string> = { ...errorResponseHeaders(error), "x-request-id": options.requestId };
  if (ProviderPassthroughError.isInstance(error)) {
    const payload = isJsonObject(error.payload)
      ? error.payload
      : renderGatewayErrorBody(new GatewayError("upstream_error"), options.requestId);
    return { status: error.upstreamStatus, headers, body: payload };
  }
  const safe = error.code === "internal_error" ? new GatewayError("internal_error") : error;
  const body =
    options.format === "anthropic"
      ? renderAnthropicErrorBody(safe, options.requestId)
      : renderGatewayErrorBody(safe, options.requestId);
  return { status: safe.status, headers, body };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
