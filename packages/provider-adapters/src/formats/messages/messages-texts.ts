import { isJsonObject } from "../request-guards.js";
import { type TextSegment, collectMessageContent, collectMessages } from "../text-segments.js";

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
