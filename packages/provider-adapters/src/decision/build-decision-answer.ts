import { buildChoiceAnswer, buildNoulAnswer, buildScoreAnswer } from "@gateway/decision-schema";
import type { DecisionAnswer, DecisionQuestion } from "./decision-contract.js";

/**
 * Builds the answer of a question from a weight per option key (`true`/`false`, choice name,
 * or level index) with decision-schema's answer math; `extra` properties are added to the answer.
 */
export function buildDecisionAnswer(
  question: DecisionQuestion,
  weights: Record<string, number>,
  extra: Record<string, unknown> = {},
): DecisionAnswer {
  if (question.type === "noul") {
    return { ...buildNoulAnswer({ weights: { true: weights.true ?? 0, false: weights.false ?? 0 } }), ...extra };
  }
  if (question.type === "choice") return { ...buildChoiceAnswer({ question, weights }), ...extra };
  return { ...buildScoreAnswer({ question, weights }), ...extra };
}
