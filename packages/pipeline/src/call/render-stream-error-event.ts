import { GatewayError, normalizeError, renderAnthropicErrorBody, renderGatewayErrorBody } from "@gateway/errors";
import type { SseEvent } from "@gateway/provider-adapters";
import type { ChatFormat } from "../endpoints/parse-chat-body.js";

/**
 * The protocol's error event for a failure after a stream started: Anthropic routes
 * `event: error` with the Anthropic error body; OpenAI routes a final
 * `data: {"error":{...},"request_id"}` (the gateway error body). 500s carry no internals.
 */
export function renderStreamErrorEvent(thrown: unknown, options: { format: ChatFormat; requestId: string }): SseEvent {
  const error = normalizeError(thrown);
  const safe = error.code === "internal_error" ? new GatewayError("internal_error") : error;
  if (options.format === "anthropic") {
    return { event: "error", data: JSON.stringify(renderAnthropicErrorBody(safe, options.requestId)) };
  }
  return { data: JSON.stringify(renderGatewayErrorBody(safe, options.requestId)) };
}
