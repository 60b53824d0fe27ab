import type { ConversationMessage, ConversationPart } from "./conversation-messages.js";
import type { DecodedAnswer } from "./decoded-answer.js";

/**
 * A decoded answer as conversation messages (tracing), one assistant message per choice: its
 * text, reasoning and tool calls in answer order (a tool call's arguments as the answer carried
 * them), items no part carries named by their type (refusals too), and its finish reason as the
 * upstream wrote it; null when the answer has no choices.
 */
export function answerConversationOf(answer: DecodedAnswer): ConversationMessage[] | null {
  if (answer.choices === 0) return null;
  const messages: ConversationMessage[] = Array.from({ length: answer.choices }, () => ({ role: "assistant", parts: [] }));
  const toolCalls = new Map<string, { type: "tool_call"; id?: string; name?: string; arguments?: unknown }>();
  let opaque = 0;
  const addOpaqueUpTo = (position: number) => {
    for (; opaque < answer.opaque.length && answer.opaque[opaque]!.after <= position; opaque += 1) {
      const item = answer.opaque[opaque]!;
      messages[item.choice]?.parts.push({ type: item.type });
    }
  };
  answer.parts.forEach((part, index) => {
    addOpaqueUpTo(index);
    if (!("choice" in part)) return;
    const message = messages[part.choice];
    if (message === undefined) return;
    let added: ConversationPart | null = null;
    if (part.type === "text-delta") added = part.refusal === true ? { type: "refusal" } : { type: "text", content: part.text };
    else if (part.type === "reasoning-delta") added = { type: "reasoning", content: part.text };
    else if (part.type === "tool-call-start") {
      const call = { type: "tool_call" as const, ...(part.id === "" ? {} : { id: part.id }), ...(part.name === "" ? {} : { name: part.name }) };
      toolCalls.set(`${part.choice}:${part.toolIndex}`, call);
      added = call;
    } else if (part.type === "tool-call-delta") {
      const call = toolCalls.get(`${part.choice}:${part.toolIndex}`);
      const location = answer.locations[index];
      if (call !== undefined) call.arguments = location !== null && location !== undefined && "value" in location ? location.value : `${typeof call.arguments === "string" ? call.arguments : ""}${part.argumentsDelta}`;
    } else if (part.type === "finish" && part.raw !== null) message.finish_reason = part.raw;
    if (added !== null) message.parts.push(added);
  });
  addOpaqueUpTo(Number.POSITIVE_INFINITY);
  return messages;
}
