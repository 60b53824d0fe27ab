import { type ConversationMessage, type ConversationPart, contentParts } from "../conversation-messages.js";
import { isJsonObject } from "../request-guards.js";

/**
 * A Responses request's conversation: `instructions` (a system message) and `input`, a text (one
 * user message) or items; null when it has neither.
 */
export function responsesRequestMessages(request: unknown): ConversationMessage[] | null {
  if (!isJsonObject(request)) return null;
  const messages: ConversationMessage[] = [];
  if (typeof request.instructions === "string") messages.push({ role: "system", parts: [{ type: "text", content: request.instructions }] });
  if (typeof request.input === "string") messages.push({ role: "user", parts: [{ type: "text", content: request.input }] });
  else if (Array.isArray(request.input)) {
    for (const item of request.input) {
      if (!isJsonObject(item)) continue;
      const message = itemMessage(item);
      if (message !== null) messages.push(message);
    }
  }
  return messages.length === 0 ? null : messages;
}

/**
 * One input item as a message: a message item (its role and content), a function call (the
 * assistant's tool call), a function call's output (the tool's answer); null for other items
 * (reasoning, references to stored items), which carry no conversation text of the caller's.
 */
function itemMessage(item: Record<string, unknown>): ConversationMessage | null {
  if (item.type === "function_call") return { role: "assistant", parts: [toolCall(item)] };
  if (item.type === "function_call_output") {
    return { role: "tool", parts: [{ type: "tool_call_response", ...(typeof item.call_id === "string" ? { id: item.call_id } : {}), response: item.output }] };
  }
  if ((item.type === undefined || item.type === "message") && typeof item.role === "string") return { role: item.role, parts: contentParts(item.content) };
  return null;
}

function toolCall(item: Record<string, unknown>): ConversationPart {
  return { type: "tool_call", ...(typeof item.call_id === "string" ? { id: item.call_id } : {}), ...(typeof item.name === "string" ? { name: item.name } : {}), arguments: item.arguments };
}
