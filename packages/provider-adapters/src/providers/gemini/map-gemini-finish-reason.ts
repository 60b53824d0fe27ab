import type { ChatFinishReason } from "../../formats/messages/map-anthropic-stop-reason.js";

/** Gemini finish reasons that mean the answer was withheld or cut by a content filter. */
const filteredReasons = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "LANGUAGE"]);

/**
 * Maps a Gemini `finishReason` to an OpenAI `finish_reason`: STOP -> stop (tool_calls when the
 * candidate called functions); MAX_TOKENS -> length; SAFETY, RECITATION, BLOCKLIST,
 * PROHIBITED_CONTENT, SPII, IMAGE_SAFETY, LANGUAGE -> content_filter; anything else
 * (OTHER, MALFORMED_FUNCTION_CALL, unknown, missing) -> stop, or tool_calls with calls.
 */
export function mapGeminiFinishReason(finishReason: string | null | undefined, hasFunctionCalls: boolean): ChatFinishReason {
  if (finishReason === "MAX_TOKENS") return "length";
  if (finishReason !== null && finishReason !== undefined && filteredReasons.has(finishReason)) return "content_filter";
  return hasFunctionCalls ? "tool_calls" : "stop";
}

/** The refusal text of an answer a Gemini safety block withheld (the reason named, nothing of the content). */
export function geminiBlockRefusal(reason: string): string {
  return `The provider blocked this content (${reason}).`;
}
