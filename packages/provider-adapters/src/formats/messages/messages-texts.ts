import { isJsonObject } from "../request-guards.js";
import { type TextSegment, collectMessageContent, collectMessages } from "../text-segments.js";
import { type ConversationMessage, contentParts } from "../conversation-messages.js";

/**
 * A messages request's texts: `system` (string or text blocks), `messages[i].content` (string,
 * `text` blocks, `tool_result` content, every string inside `tool_use.input`).
 */
export function messagesRequestTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isJsonObject(body)) return segments;
  collectMessageContent(body.system, ["system"], segments);
  collectMessages(body, segments);
  return segments;
}

/**
 * A message answer's texts: its `text` blocks, and each `tool_use` block's input as JSON
 * (checked, never rewritten).
 */
export function messagesAnswerTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isJsonObject(body) || !Array.isArray(body.content)) return segments;
  body.content.forEach((block: unknown, index) => {
    if (!isJsonObject(block)) return;
    if (block.type === "tool_use") segments.push({ path: ["content", index, "input"], text: JSON.stringify(block.input ?? {}), rewritable: false });
    else if (block.type === "text" && typeof block.text === "string") segments.push({ path: ["content", index, "text"], text: block.text });
  });
  return segments;
}

/** A message answer as one assistant message (its content blocks), with its stop reason. */
export function messagesAnswerMessages(answer: unknown): ConversationMessage[] | null {
  if (!isJsonObject(answer) || !Array.isArray(answer.content)) return null;
  return [{ role: "assistant", parts: contentParts(answer.content), ...(typeof answer.stop_reason === "string" ? { finish_reason: answer.stop_reason } : {}) }];
}
