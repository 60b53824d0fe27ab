import type { JsonObject } from "@gateway/contracts";
import type { ChatFinishReason } from "../messages/map-anthropic-stop-reason.js";
import { isJsonObject } from "../request-guards.js";

/**
 * A response object's finish in the chat completions vocabulary: `length` for
 * `max_output_tokens` (and any other incomplete reason), `content_filter`; else `tool_calls` when
 * the answer has function calls, `stop` otherwise.
 */
export function mapResponsesFinishReason(response: JsonObject, toolCount: number): ChatFinishReason {
  if (response.status === "incomplete") {
    const reason = isJsonObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
    return reason === "content_filter" ? "content_filter" : "length";
  }
  return toolCount > 0 ? "tool_calls" : "stop";
}
