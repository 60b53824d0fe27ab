import type { JsonObject } from "@gateway/contracts";
import type { CompiledGuardrails } from "@gateway/policy-engine";

/**
 * Output guardrails on a non-streamed Responses answer: the text of every `output_text` part of
 * the output messages is checked as a whole and may be redacted; every `function_call`'s
 * arguments are checked by block and flag rules (never rewritten: a redaction inside JSON could
 * break it). Throws 403 `guardrail_blocked` for a blocking rule; returns the body (a redacted
 * copy when a redact rule matched) and the names of flagging rules.
 */
export function guardResponsesOutput(input: { guardrails: CompiledGuardrails; body: unknown }): { body: unknown; flags: string[] } {
  const flags = new Set<string>();
  const check = (text: string): string => {
    const result = input.guardrails.checkOutput(text);
    if (result.blocked) throw result.blocked;
    for (const flag of result.flags) flags.add(flag);
    return result.value;
  };
  if (typeof input.body !== "object" || input.body === null) return { body: input.body, flags: [] };
  const body = input.body as JsonObject;
  if (!Array.isArray(body.output)) return { body, flags: [] };
  const output = (body.output as unknown[]).map((rawItem) => {
    const item = rawItem as JsonObject | null;
    if (item?.type === "function_call" && typeof item.arguments === "string") {
      check(item.arguments);
      return rawItem;
    }
    if (item?.type !== "message" || !Array.isArray(item.content)) return rawItem;
    let changed = false;
    const content = (item.content as unknown[]).map((rawPart) => {
      const part = rawPart as JsonObject | null;
      if (part?.type !== "output_text" || typeof part.text !== "string") return rawPart;
      const text = check(part.text);
      if (text === part.text) return rawPart;
      changed = true;
      return { ...part, text };
    });
    return changed ? { ...item, content } : rawItem;
  });
  return { body: { ...body, output }, flags: [...flags] };
}
