import { choiceConfidence } from "./choice-confidence.js";
import type { ChoiceAnswer } from "./decision-answer-schema.js";
import type { ChoiceQuestion } from "./decision-question-schema.js";
import { normalizeWeights } from "./normalize-distribution.js";

/** Options of {@link buildChoiceAnswer}. */
export interface BuildChoiceAnswerOptions {
  /** The question answered; its criteria keys are the choices. */
  question: Pick<ChoiceQuestion, "criteria">;
  /** Non-negative weights by choice name; missing choices weigh 0. Normalised here. */
  weights: Readonly<Record<string, number>>;
}

/**
 * Builds a complete choice answer from a label distribution: `probabilities` for every choice
 * (normalised to sum 1), `choice` the most probable (the first in criteria order on ties), and
 * `confidence = (n * p_max - 1) / (n - 1)`.
 *
 * @throws RangeError when a weight names no choice or is negative, NaN or infinite.
 */
export function buildChoiceAnswer(options: BuildChoiceAnswerOptions): ChoiceAnswer {
  const { question, weights } = options;
  const choices = Object.keys(question.criteria);
  for (const name of Object.keys(weights)) {
    if (!Object.hasOwn(question.criteria, name)) throw new RangeError(`Weight for ${JSON.stringify(name)}, which is no choice of the question.`);
  }
  // Own properties only: a choice may be named `__proto__`, `constructor` or `valueOf`.
  const normalized = normalizeWeights(choices.map((name) => (Object.hasOwn(weights, name) ? (weights[name] as number) : 0)));
  let best = 0;
  normalized.forEach((probability, index) => {
    if (probability > (normalized[best] as number)) best = index;
  });
  return {
    type: "choice",
    choice: choices[best] as string,
    probabilities: Object.fromEntries(choices.map((name, index) => [name, normalized[index] as number])),
    confidence: choiceConfidence(normalized),
  };
}
