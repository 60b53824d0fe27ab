import { type FormatTexts, writeTextSegments } from "@gateway/provider-adapters";
import type { CompiledGuardrails } from "./compile-guardrails.js";
import type { BodyGuardrailsResult } from "./apply-input-guardrails.js";

/**
 * Runs the output guardrails over a non-streamed answer: reads its texts through its format
 * module (a chat completion, message or response object: the texts of the answer decoded into
 * the parts streams use, so JSON answers and streams are read alike) and checks each as a whole,
 * in order; a redaction is written back into a copy of the
 * body (texts the format marks as not rewritable, tool call arguments, are checked by block and
 * flag rules only). Stops at the first blocking rule.
 */
export function applyOutputGuardrails<T>(options: { guardrails: CompiledGuardrails; body: T; format: FormatTexts }): BodyGuardrailsResult<T> {
  const { guardrails, body } = options;
  const segments = options.format.answerTexts(body);
  if (segments.length === 0) return { body, flags: [], redacted: false, blocked: null };
  const flags = new Set<string>();
  const texts: string[] = [];
  let redacted = false;
  for (const segment of segments) {
    const result = guardrails.checkOutput(segment.text);
    if (result.blocked) return { body, flags: [], redacted: false, blocked: result.blocked };
    for (const flag of result.flags) flags.add(flag);
    texts.push(result.value);
    if (result.value !== segment.text && segment.rewritable !== false) redacted = true;
  }
  return { body: redacted ? writeTextSegments(body, segments, texts) : body, flags: [...flags], redacted, blocked: null };
}
