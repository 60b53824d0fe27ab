import { buildScoreLegend } from "./build-score-legend.js";
import type { ScoreAnswer } from "./decision-answer-schema.js";
import type { CriterionValue } from "./decision-content-schema.js";
import { normalizeWeights } from "./normalize-distribution.js";
import { scoreConfidence } from "./score-confidence.js";
import { scoreExpectedValue } from "./score-expected-value.js";

/** Options of {@link buildScoreAnswer}. */
export interface BuildScoreAnswerOptions {
  /** The question answered; its criteria must be an array of ordered levels. */
  question: { criteria: readonly CriterionValue[] | Readonly<Record<string, CriterionValue>> };
  /**
   * Non-negative weights by level: an array by level index, or a record keyed `"0"`, `"1"`, …
   * (missing levels weigh 0). Normalised here.
   */
  weights: readonly number[] | Readonly<Record<string, number>>;
}

/**
 * Builds a complete score answer for a question with an array of n levels: `probabilities` and
 * `legend` keyed `"0"`..`"n-1"`, `score = sum(p_i * i)` and the score confidence.
 *
 * Object rubrics are not supported here (they need a native provider, whose answer passes through).
 *
 * @throws RangeError for an object rubric, weights that do not fit the levels, or a weight that is
 * negative, NaN or infinite.
 */
export function buildScoreAnswer(options: BuildScoreAnswerOptions): ScoreAnswer {
  const { question, weights } = options;
  const levels = question.criteria;
  if (!Array.isArray(levels)) throw new RangeError("buildScoreAnswer needs a question with an array of levels, not an object rubric.");
  const normalized = normalizeWeights(weightsByLevel(weights, levels.length));
  const probabilities: Record<string, number> = {};
  normalized.forEach((probability, index) => {
    probabilities[String(index)] = probability;
  });
  return {
    type: "score",
    score: scoreExpectedValue(normalized),
    probabilities,
    legend: buildScoreLegend(levels),
    confidence: scoreConfidence(normalized),
  };
}

function weightsByLevel(weights: readonly number[] | Readonly<Record<string, number>>, count: number): number[] {
  if (Array.isArray(weights)) {
    if (weights.length !== count) throw new RangeError(`Expected ${count} level weights, got ${weights.length}.`);
    return [...(weights as readonly number[])];
  }
  const record = weights as Readonly<Record<string, number>>;
  const result = new Array<number>(count).fill(0);
  for (const key of Object.keys(record)) {
    const index = /^(?:0|[1-9]\d*)$/.test(key) ? Number(key) : Number.NaN;
    if (!(index < count)) throw new RangeError(`Weight for ${JSON.stringify(key)}, which is no level of the question.`);
    result[index] = record[key] as number;
  }
  return result;
}
