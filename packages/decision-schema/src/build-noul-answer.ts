import type { NoulAnswer } from "./decision-answer-schema.js";
import { normalizeWeights } from "./normalize-distribution.js";

/** Options of {@link buildNoulAnswer}. */
export interface BuildNoulAnswerOptions {
  /** Non-negative weights of the labels `true` and `false` (a missing label weighs 0). Normalised here. */
  weights: { readonly true?: number; readonly false?: number };
}

/**
 * Builds a noul answer from the weights of `true` and `false`: `noul` = P(true) after
 * normalisation (0.5 when both weigh 0).
 *
 * @throws RangeError for a weight that is negative, NaN or infinite.
 */
export function buildNoulAnswer(options: BuildNoulAnswerOptions): NoulAnswer {
  const [probabilityTrue] = normalizeWeights([options.weights.true ?? 0, options.weights.false ?? 0]);
  return { type: "noul", noul: probabilityTrue as number };
}
