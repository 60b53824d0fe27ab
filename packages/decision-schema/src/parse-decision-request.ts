import { GatewayError, fromZodError } from "@gateway/errors";
import { z } from "zod";
import { countKeys } from "./count-entries-check.js";
import { decisionLimits } from "./decision-limits.js";
import { type DecisionRequest, decisionRequestSchema } from "./decision-request-schema.js";
import { isPlainObject } from "./in-place-record-schema.js";

/** At most this many issues are listed in an error's `details.issues`. */
const maxListedIssues = 50;

/** The result of {@link safeParseDecisionRequest}. */
export type SafeParseDecisionRequestResult =
  | { success: true; data: DecisionRequest }
  | { success: false; error: GatewayError };

/**
 * Validates a decision request body. Returns the body itself (additional properties preserved,
 * own `__proto__` keys included, as native providers must receive them) or an
 * `invalid_request` {@link GatewayError} whose `param` names the failing field
 * (`questions.q1.criteria`) and whose `details.issues` lists the problems (the first 50, so a
 * body full of mistakes cannot produce a huge error).
 */
export function safeParseDecisionRequest(body: unknown): SafeParseDecisionRequestResult {
  const oversized = findOversizedCollection(body);
  if (oversized !== undefined) return { success: false, error: fromZodError(new z.ZodError([oversized])) };
  const result = decisionRequestSchema.safeParse(body);
  // The schema only checks (no defaults, no transforms), so the valid body is the request as
  // sent: zod's copy would drop every own `__proto__` key (of the body, the state, a question).
  if (result.success) return { success: true, data: body as DecisionRequest };
  const issues = result.error.issues;
  return { success: false, error: fromZodError(issues.length > maxListedIssues ? new z.ZodError(issues.slice(0, maxListedIssues)) : result.error) };
}

/**
 * Validates a decision request body and returns it typed; throws an `invalid_request`
 * {@link GatewayError} (see {@link safeParseDecisionRequest}) when it breaks a rule.
 */
export function parseDecisionRequest(body: unknown): DecisionRequest {
  const result = safeParseDecisionRequest(body);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * Rejects more than 200 questions before the full parse, so an oversized body costs one bounded
 * key count instead of validating every question. (Criteria counts are checked before their
 * entries by the schema itself.)
 */
function findOversizedCollection(body: unknown): z.core.$ZodIssue | undefined {
  const { minQuestions, maxQuestions } = decisionLimits;
  if (!isPlainObject(body) || !isPlainObject(body.questions)) return undefined;
  if (countKeys(body.questions, maxQuestions + 1) <= maxQuestions) return undefined;
  return tooBig(["questions"], maxQuestions, `questions must have ${minQuestions} to ${maxQuestions} entries (got more than ${maxQuestions}).`);
}

function tooBig(path: string[], maximum: number, message: string): z.core.$ZodIssue {
  return { code: "too_big", origin: "object", maximum, inclusive: true, path, message, input: undefined };
}

