import { isJsonObject } from "./request-guards.js";

/**
 * One part of a conversation message, format-neutral (the OpenTelemetry GenAI semantic
 * conventions' message schema, which tracing records as it is).
 */
export type ConversationPart =
  | { type: "text"; content: string }
  | { type: "tool_call"; id?: string; name?: string; arguments?: unknown }
  | { type: "tool_call_response"; id?: string; response?: unknown }
  | { type: "reasoning"; content: string }
  | { type: string };

/** One message of a request's conversation or of an answer. */
export interface ConversationMessage {
  role: string;
  parts: ConversationPart[];
  finish_reason?: string;
}

/**
 * Text and tool calls of a chat completions, messages or Responses message content; other parts
 * (images, files) are named by their type, never copied.
 */
export function contentParts(content: unknown): ConversationPart[] {
  if (typeof content === "string") return [{ type: "text", content }];
  if (!Array.isArray(content)) return [];
  return content.map((item: unknown): ConversationPart => {
    if (!isJsonObject(item)) return { type: "unknown" };
    if ((item.type === "text" || item.type === "input_text" || item.type === "output_text") && typeof item.text === "string") return { type: "text", content: item.text };
    if (item.type === "tool_use") return { type: "tool_call", ...(typeof item.id === "string" ? { id: item.id } : {}), ...(typeof item.name === "string" ? { name: item.name } : {}), arguments: item.input };
    return { type: typeof item.type === "string" ? item.type : "unknown" };
  });
}

/** A chat completions message's `tool_calls` as tool call parts. */
export function toolCallParts(message: Record<string, unknown>): ConversationPart[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.filter(isJsonObject).map((call) => {
    const fn = isJsonObject(call.function) ? call.function : {};
    return { type: "tool_call", ...(typeof call.id === "string" ? { id: call.id } : {}), ...(typeof fn.name === "string" ? { name: fn.name } : {}), arguments: fn.arguments };
  });
}

/**
 * The conversation of a chat completions or messages request: Anthropic's `system`, then each of
 * `messages` (its content, and its OpenAI tool calls); null when the request has no `messages`.
 */
export function chatShapedRequestMessages(request: unknown): ConversationMessage[] | null {
  if (!isJsonObject(request) || !Array.isArray(request.messages)) return null;
  const messages: ConversationMessage[] = [];
  if (request.system !== undefined) messages.push({ role: "system", parts: contentParts(request.system) });
  for (const message of request.messages) {
    if (!isJsonObject(message)) continue;
    messages.push({ role: typeof message.role === "string" ? message.role : "user", parts: [...contentParts(message.content), ...toolCallParts(message)] });
  }
  return messages;
}
