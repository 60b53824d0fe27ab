import type { ScoreQuestion } from "./decision-question-schema.js";
import { parseRubricKey } from "./parse-rubric-key.js";

/** The scores a score question allows, as told by its criteria. */
export type ScoreScale =
  | {
      /** An array of ordered levels: level i has score i and key `String(i)`. */
      kind: "levels";
      /** `"0"`, `"1"`, … `String(n - 1)`. */
      keys: string[];
      min: 0;
      max: number;
    }
  | {
      /** An object rubric keyed by numbers written as strings. */
      kind: "rubric";
      /** The rubric's keys as written, in rubric order. */
      keys: string[];
      /** The score each key denotes, same order as `keys`. */
      scores: number[];
      min: number;
      max: number;
    };

/**
 * Describes the scale of a (validated) score question: its answer keys and the range its
 * score must fall in.
 */
export function describeScoreScale(criteria: ScoreQuestion["criteria"]): ScoreScale {
  if (Array.isArray(criteria)) {
    return { kind: "levels", keys: criteria.map((_level, index) => String(index)), min: 0, max: criteria.length - 1 };
  }
  const keys = Object.keys(criteria);
  const scores = keys.map((key) => {
    const score = parseRubricKey(key);
    if (score === undefined) throw new RangeError(`Score rubric key ${JSON.stringify(key)} is not a finite number.`);
    return score;
  });
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const score of scores) {
    if (score < min) min = score;
    if (score > max) max = score;
  }
  return { kind: "rubric", keys, scores, min, max };
}
