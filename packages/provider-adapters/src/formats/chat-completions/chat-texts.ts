import { isJsonObject } from "../request-guards.js";
import { type TextSegment, collectMessages } from "../text-segments.js";
import { type ConversationMessage, contentParts, toolCallParts } from "../conversation-messages.js";

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

/**
 * A chat completion's texts: per choice, its tool calls' `function.arguments` (checked, never
 * rewritten) and then its `message.content` string.
 */
export function chatAnswerTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isJsonObject(body) || !Array.isArray(body.choices)) return segments;
  body.choices.forEach((choice: unknown, choiceIndex) => {
    const message = isJsonObject(choice) ? choice.message : undefined;
    if (!isJsonObject(message)) return;
    if (Array.isArray(message.tool_calls)) {
      message.tool_calls.forEach((call: unknown, callIndex) => {
        if (isJsonObject(call) && isJsonObject(call.function) && typeof call.function.arguments === "string") {
          segments.push({ path: ["choices", choiceIndex, "message", "tool_calls", callIndex, "function", "arguments"], text: call.function.arguments, rewritable: false });
        }
      });
    }
    if (typeof message.content === "string") segments.push({ path: ["choices", choiceIndex, "message", "content"], text: message.content });
  });
  return segments;
}

/** A chat completion's choices as assistant messages, each with its finish reason. */
export function chatAnswerMessages(answer: unknown): ConversationMessage[] | null {
  if (!isJsonObject(answer) || !Array.isArray(answer.choices)) return null;
  return answer.choices.filter(isJsonObject).map((choice) => {
    const message = isJsonObject(choice.message) ? choice.message : {};
    return {
      role: typeof message.role === "string" ? message.role : "assistant",
      parts: [...contentParts(message.content), ...toolCallParts(message)],
      ...(typeof choice.finish_reason === "string" ? { finish_reason: choice.finish_reason } : {}),
    };
  });
}
