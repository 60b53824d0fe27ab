import type { ChatFinishReason } from "../../formats/messages/map-anthropic-stop-reason.js";

/**
 * Maps a Converse `stopReason` to a chat completions `finish_reason`: end_turn, stop_sequence
 * -> stop; max_tokens, model_context_window_exceeded -> length; tool_use -> tool_calls;
 * guardrail_intervened, content_filtered -> content_filter. Unknown or missing: stop.
 */
export function mapConverseStopReason(stopReason: unknown): ChatFinishReason {
  switch (stopReason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "guardrail_intervened":
    case "content_filtered":
      return "content_filter";
    default:
      return "stop";
  }
}
