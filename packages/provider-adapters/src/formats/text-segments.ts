import { isJsonObject } from "./request-guards.js";

/**
 * A text of a request or answer body and where it sits, so that a redaction can be written back.
 * `rewritable: false` marks a text that is checked but never rewritten (tool call arguments: a
 * redaction inside JSON could break it; Anthropic `tool_use` input, checked as its JSON).
 */
export interface TextSegment {
  path: (string | number)[];
  text: string;
  rewritable?: false;
}

const maxDepth = 64;

/** Every string value inside `value` (object keys are never texts), up to 64 levels deep. */
export function collectStrings(value: unknown, path: (string | number)[], segments: TextSegment[], depth = 0): void {
  if (typeof value === "string") {
    segments.push({ path, text: value });
    return;
  }
  if (depth >= maxDepth) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectStrings(item, [...path, index], segments, depth + 1));
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) collectStrings(item, [...path, key], segments, depth + 1);
  }
}

/**
 * A message's `content` in the chat completions or messages format: a string, or blocks / parts
 * (`text`, Anthropic `tool_result` content, every string inside Anthropic `tool_use` input).
 */
export function collectMessageContent(content: unknown, path: (string | number)[], segments: TextSegment[]): void {
  if (typeof content === "string") {
    segments.push({ path, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((block, blockIndex) => {
    if (!isJsonObject(block)) return;
    const blockPath = [...path, blockIndex];
    if (block.type === "text" && typeof block.text === "string") {
      segments.push({ path: [...blockPath, "text"], text: block.text });
    } else if (block.type === "tool_result") {
      collectMessageContent(block.content, [...blockPath, "content"], segments);
    } else if (block.type === "tool_use") {
      collectStrings(block.input, [...blockPath, "input"], segments, 0);
    }
  });
}

/** The `content` of each of a body's `messages`, then `perMessage`'s texts of the message. */
export function collectMessages(
  body: Record<string, unknown>,
  segments: TextSegment[],
  perMessage?: (message: Record<string, unknown>, base: (string | number)[], segments: TextSegment[]) => void,
): void {
  const messages = body.messages;
  if (!Array.isArray(messages)) return;
  messages.forEach((message, messageIndex) => {
    if (!isJsonObject(message)) return;
    const base = ["messages", messageIndex];
    collectMessageContent(message.content, [...base, "content"], segments);
    perMessage?.(message, base, segments);
  });
}

/**
 * Returns a copy of `body` with the texts at `segments[i].path` replaced by `texts[i]`
 * (only where they differ and the segment is rewritable). The input body is not modified.
 */
export function writeTextSegments<T>(body: T, segments: readonly TextSegment[], texts: readonly string[]): T {
  const copy = structuredClone(body);
  segments.forEach((segment, index) => {
    const text = texts[index];
    if (text === undefined || text === segment.text || segment.rewritable === false) return;
    let container: unknown = copy;
    for (const key of segment.path.slice(0, -1)) container = (container as Record<string | number, unknown>)[key];
    (container as Record<string | number, unknown>)[segment.path[segment.path.length - 1] as string | number] = text;
  });
  return copy;
}
