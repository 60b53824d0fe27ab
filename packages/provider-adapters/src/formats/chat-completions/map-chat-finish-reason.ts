/** Anthropic `stop_reason` values the gateway produces. */
export type AnthropicStopReason = "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "refusal";

/**
 * Maps an OpenAI `finish_reason` to an Anthropic `stop_reason`: stop -> end_turn,
 * length -> max_tokens, tool_calls (and the legacy function_call) -> tool_use,
 * content_filter -> refusal. Unknown or missing reasons fall back to `end_turn`.
 * (OpenAI does not say which stop sequence matched, so `stop_sequence` is never produced.)
 */
export function mapChatFinishReason(finishReason: string | null | undefined): AnthropicStopReason {
  switch (finishReason) {
    case "stop":
      return "end_turn";
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return "end_turn";
  }
}
