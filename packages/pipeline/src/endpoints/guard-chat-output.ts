import type { CompiledGuardrails } from "@gateway/policy-engine";
import type { ChatFormat } from "./parse-chat-body.js";

/**
 * Output guardrails on a non-streamed chat answer: every assistant text (OpenAI
 * `choices[].message.content`, Anthropic `text` blocks) is checked as a whole and may be
 * redacted; every tool call's arguments (OpenAI `tool_calls[].function.arguments`, Anthropic
 * `tool_use` input) are checked too, by block and flag rules (arguments are never rewritten: a
 * redaction inside JSON could break it). Throws 403 `guardrail_blocked` for a blocking rule;
 * returns the body (a redacted copy when a redact rule matched) and the names of flagging rules.
 */
export function guardChatOutput(input: { guardrails: CompiledGuardrails; body: unknown; format: ChatFormat }): { body: unknown; flags: string[] } {
  const { guardrails } = input;
  const flags = new Set<string>();
  const check = (text: string): string => {
    const result = guardrails.checkOutput(text);
    if (result.blocked) throw result.blocked;
    for (const flag of result.flags) flags.add(flag);
    return result.value;
  };
  if (typeof input.body !== "object" || input.body === null) return { body: input.body, flags: [] };
  const body = input.body as Record<string, unknown>;
  if (input.format === "openai") {
    if (!Array.isArray(body.choices)) return { body, flags: [] };
    const choices = body.choices.map((choice: unknown) => {
      const message = (choice as { message?: Record<string, unknown> } | null)?.message;
      if (typeof message !== "object" || message === null) return choice;
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls as { function?: { arguments?: unknown } }[]) {
          if (typeof call?.function?.arguments === "string") check(call.function.arguments);
        }
      }
      if (typeof message.content !== "string") return choice;
      const content = check(message.content);
      return content === message.content ? choice : { ...(choice as object), message: { ...message, content } };
    });
    return { body: { ...body, choices }, flags: [...flags] };
  }
  if (!Array.isArray(body.content)) return { body, flags: [] };
  const content = body.content.map((block: unknown) => {
    const candidate = block as { type?: unknown; text?: unknown; input?: unknown } | null;
    if (candidate?.type === "tool_use") {
      check(JSON.stringify(candidate.input ?? {}));
      return block;
    }
    if (candidate?.type !== "text" || typeof candidate.text !== "string") return block;
    const text = check(candidate.text);
    return text === candidate.text ? block : { ...candidate, text };
  });
  return { body: { ...body, content }, flags: [...flags] };
}
