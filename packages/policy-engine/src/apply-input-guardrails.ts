import type { GatewayError } from "@gateway/errors";
import { type FormatTexts, writeTextSegments } from "@gateway/provider-adapters";
import type { CompiledGuardrails } from "./compile-guardrails.js";

/** The outcome of {@link applyInputGuardrails} and `applyOutputGuardrails` on a body. */
export interface BodyGuardrailsResult<T> {
  /** The body to pass on: the same object when nothing was redacted, a redacted copy otherwise. */
  body: T;
  flags: string[];
  redacted: boolean;
  /** 403 `guardrail_blocked` naming the guardrail, when a `block` rule matched. */
  blocked: GatewayError | null;
}

/**
 * Runs the input guardrails over a request body: reads its texts through its format module,
 * checks them, and writes redactions back into a copy of the body.
 */
export function applyInputGuardrails<T>(options: {
  guardrails: CompiledGuardrails;
  body: T;
  format: FormatTexts;
}): BodyGuardrailsResult<T> {
  const { guardrails, body, format } = options;
  if (!guardrails.hasInputRules) return { body, flags: [], redacted: false, blocked: null };
  const segments = format.requestTexts(body);
  const result = guardrails.checkInput(segments.map((segment) => segment.text));
  if (result.blocked) return { body, flags: [], redacted: false, blocked: result.blocked };
  if (!result.redacted) return { body, flags: result.flags, redacted: false, blocked: null };
  return { body: writeTextSegments(body, segments, result.value), flags: result.flags, redacted: true, blocked: null };
}
