import type { ChatFinishReason } from "../messages/map-anthropic-stop-reason.js";

const chatFinishReasons = new Set<string>(["stop", "length", "tool_calls", "content_filter"]);

/** An upstream's `finish_reason` in the gateway's vocabulary: the legacy `function_call` is `tool_calls`, anything unknown `stop`. */
export function readChatFinishReason(raw: string): ChatFinishReason {
  if (chatFinishReasons.has(raw)) return raw as ChatFinishReason;
  return raw === "function_call" ? "tool_calls" : "stop";
}
