import { GatewayError, formatParamPath } from "@gateway/errors";
import type { DecisionAnswer } from "./decision-answer-schema.js";
import type { DecisionQuestion } from "./decision-question-schema.js";
import type { DecisionRequest } from "./decision-request-schema.js";
import { type DecisionResponse, decisionResponseSchema } from "./decision-response-schema.js";
import { describeScoreScale } from "./describe-score-scale.js";

/** What is wrong with a provider's decision response. */
export type DecisionResponseProblem =
  | "invalid_shape"
  | "missing_answer"
  | "unexpected_answer"
  | "answer_type_mismatch"
  | "unknown_choice"
  | "unknown_probability_key"
  | "unknown_legend_key"
  | "score_out_of_range";

/** One problem found by {@link checkDecisionResponse}, as listed in the error's `details.issues`. */
export interface DecisionResponseIssue {
  /** Where in the response: `answers.q1.choice`. */
  path: string;
  problem: DecisionResponseProblem;
  message: string;
}

/** At most this many issues are listed in an error (the total is in `details.issueCount`). */
const maxListedIssues = 20;

/**
 * Checks a provider's decision response against the request it answers: the shapes of the
 * response table; exactly the request's question keys (none missing, none extra); each answer's
 * type fits its question's kind or is `refusal`; a choice names one of the criteria;
 * `probabilities` (and a score's `legend`) use only keys valid for the question; numbers in
 * range ([0, 1] for `noul`, probabilities and confidence; a score within the levels' `[0, n-1]`
 * or the rubric's `[min key, max key]`).
 *
 * Returns the response itself, typed, or throws `upstream_error` whose `details.issues` names every
 * problem by path (values from the answers are not echoed). It is not `retryable`.
 */
export function checkDecisionResponse(request: DecisionRequest, response: unknown): DecisionResponse {
  const parsed = decisionResponseSchema.safeParse(response);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue): DecisionResponseIssue => {
      const path = String(formatParamPath(issue.path) ?? "(response)");
      return { path, problem: "invalid_shape", message: `${path}: ${issue.message}` };
    });
    throw responseError(issues, parsed.error);
  }
  // Checks only (no transforms): the response as given, own `__proto__` keys included.
  const checked = response as DecisionResponse;
  const issues: DecisionResponseIssue[] = [];
  const answers = checked.answers;
  const questions = request.questions;
  for (const name of Object.keys(questions)) {
    const question = questions[name];
    const answer = Object.hasOwn(answers, name) ? answers[name] : undefined;
    if (question === undefined) continue;
    if (answer === undefined) {
      issues.push({ path: `answers.${name}`, problem: "missing_answer", message: `answers.${name} is missing.` });
      continue;
    }
    checkAnswer(name, question, answer, issues);
  }
  for (const name of Object.keys(answers)) {
    if (!Object.hasOwn(questions, name)) {
      issues.push({
        path: `answers.${name}`,
        problem: "unexpected_answer",
        message: `answers.${name} answers no question of the request.`,
      });
    }
  }
  if (issues.length > 0) throw responseError(issues);
  return checked;
}

function checkAnswer(name: string, question: DecisionQuestion, answer: DecisionAnswer, issues: DecisionResponseIssue[]): void {
  const path = `answers.${name}`;
  if (answer.type === "refusal") return;
  if (answer.type !== question.type) {
    issues.push({
      path: `${path}.type`,
      problem: "answer_type_mismatch",
      message: `${path} is a ${answer.type} answer to a ${question.type} question.`,
    });
    return;
  }
  if (question.type === "choice" && answer.type === "choice") {
    const criteria = question.criteria;
    if (!Object.hasOwn(criteria, answer.choice)) {
      issues.push({ path: `${path}.choice`, problem: "unknown_choice", message: `${path}.choice names no choice of the question.` });
    }
    checkKeys(answer.probabilities, (key) => Object.hasOwn(criteria, key), `${path}.probabilities`, "unknown_probability_key", issues);
    return;
  }
  if (question.type === "score" && answer.type === "score") {
    const scale = describeScoreScale(question.criteria);
    const validKeys = new Set(scale.keys);
    if (answer.score < scale.min || answer.score > scale.max) {
      issues.push({
        path: `${path}.score`,
        problem: "score_out_of_range",
        message: `${path}.score ${answer.score} is outside the question's range [${scale.min}, ${scale.max}].`,
      });
    }
    checkKeys(answer.probabilities, (key) => validKeys.has(key), `${path}.probabilities`, "unknown_probability_key", issues);
    checkKeys(answer.legend, (key) => validKeys.has(key), `${path}.legend`, "unknown_legend_key", issues);
  }
  // A noul answer's only rule, 0 <= noul <= 1, is a shape rule checked by the schema.
}

function checkKeys(
  record: Record<string, unknown> | undefined,
  isValid: (key: string) => boolean,
  path: string,
  problem: DecisionResponseProblem,
  issues: DecisionResponseIssue[],
): void {
  if (record === undefined) return;
  for (const key of Object.keys(record)) {
    if (!isValid(key)) {
      issues.push({ path: `${path}.${key}`, problem, message: `${path} has a key that is not valid for the question.` });
    }
  }
}

function responseError(issues: DecisionResponseIssue[], cause?: unknown): GatewayError {
  const first = issues[0];
  return new GatewayError("upstream_error", {
    message: `The provider's decision response is invalid${first ? `: ${first.message}` : "."}`,
    retryable: false, details: { issueCount: issues.length, issues: issues.slice(0, maxListedIssues) },
    cause,
  });
}
