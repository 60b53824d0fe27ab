/** OpenAI chat completion `finish_reason` values the gateway produces. */
export type ChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/**
 * Maps an Anthropic `stop_reason` to an OpenAI `finish_reason`:
 * end_turn, stop_sequence, pause_turn -> stop; max_tokens, model_context_window_exceeded -> length;
 * tool_use -> tool_calls; refusal -> content_filter. Unknown or missing reasons fall back to `stop`.
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): ChatFinishReason {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "content_filter";
    default:
      return "stop";
  }
}
