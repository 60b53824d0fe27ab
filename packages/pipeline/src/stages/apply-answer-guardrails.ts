import type { FormatTexts } from "@gateway/provider-adapters";
import { type CompiledGuardrails, applyOutputGuardrails } from "@gateway/policy-engine";

/**
 * Output guardrails on a non-streamed answer in any format (chat completion, message, response
 * object, MCP result): the texts its format module lists are checked as a whole and may be
 * redacted; tool call arguments are checked by block and flag rules only (a redaction inside JSON
 * could break it). Throws 403 `guardrail_blocked` for a blocking rule; returns the body (a
 * redacted copy when a redact rule matched) and the names of flagging rules.
 */
export function applyAnswerGuardrails(guardrails: CompiledGuardrails, body: unknown, format: FormatTexts): { body: unknown; flags: string[] } {
  const result = applyOutputGuardrails({ guardrails, body, format });
  if (result.blocked) throw result.blocked;
  return { body: result.body, flags: result.flags };
}
