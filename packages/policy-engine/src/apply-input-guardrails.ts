import type { GatewayError } from "@gateway/errors";
import type { CompiledGuardrails } from "./compile-guardrails.js";
import { extractTextSegments, writeTextSegments, type RequestFormat } from "./extract-text-segments.js";

/** The outcome of {@link applyInputGuardrails}. */
export interface InputGuardrailsResult<T> {
  /** The body to forward: the same object when nothing was redacted, a redacted copy otherwise. */
  body: T;
  flags: string[];
  redacted: boolean;
  /** 403 `guardrail_blocked` naming the guardrail, when a `block` rule matched. */
  blocked: GatewayError | null;
}

/**
 * Runs the input guardrails over a request body: extracts its texts, checks them, and writes
 * redactions back into a copy of the body.
 */
export function applyInputGuardrails<T>(options: {
  guardrails: CompiledGuardrails;
  body: T;
  format: RequestFormat;
}): InputGuardrailsResult<T> {
  const { guardrails, body, format } = options;
  if (!guardrails.hasInputRules) return { body, flags: [], redacted: false, blocked: null };
  const segments = extractTextSegments(body, format);
  const result = guardrails.checkInput(segments.map((segment) => segment.text));
  if (result.blocked) return { body, flags: [], redacted: false, blocked: result.blocked };
  if (!result.redacted) return { body, flags: result.flags, redacted: false, blocked: null };
  return { body: writeTextSegments(body, segments, result.value), flags: result.flags, redacted: true, blocked: null };
}
