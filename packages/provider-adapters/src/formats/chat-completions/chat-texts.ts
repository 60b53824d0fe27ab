import { isJsonObject } from "../request-guards.js";
import { type TextSegment, collectMessages } from "../text-segments.js";

/**
 * A chat completions request's texts: `messages[i].content` (string, or `text` of its `text`
 * parts), tool call `function.arguments`, and legacy `function_call.arguments`.
 */
export function chatRequestTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (isJsonObject(body)) collectMessages(body, segments, collectToolCalls);
  return segments;
}

function collectToolCalls(message: Record<string, unknown>, base: (string | number)[], segments: TextSegment[]): void {
  if (Array.isArray(message.tool_calls)) {
    message.tool_calls.forEach((call, callIndex) => {
      if (isJsonObject(call) && isJsonObject(call.function) && typeof call.function.arguments === "string") {
        segments.push({ path: [...base, "tool_calls", callIndex, "function", "arguments"], text: call.function.arguments });
      }
    });
  }
  if (isJsonObject(message.function_call) && typeof message.function_call.arguments === "string") {
    segments.push({ path: [...base, "function_call", "arguments"], text: message.function_call.arguments });
  }
}
