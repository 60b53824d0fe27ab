import type { DecisionQuestion } from "./decision-contract.js";

/** One answerable option of a question: the key it has in the answer, and its description. */
export interface DecisionOption {
  /** `true`/`false` (noul), the choice name (choice), or the level index as a string (score). */
  key: string;
  /** What the request says about the option (criteria value); `null` when none. */
  description: unknown;
}

/**
 * The options of a question in request order. Object rubrics (score with an object of
 * numeric keys) have no translated representation: callers reject them before.
 */
export function decisionOptions(question: DecisionQuestion): DecisionOption[] {
  if (question.type === "noul") {
    const criteria = (question.criteria ?? {}) as { true?: unknown; false?: unknown };
    return [
      { key: "true", description: criteria.true ?? null },
      { key: "false", description: criteria.false ?? null },
    ];
  }
  if (question.type === "choice") {
    return Object.entries(question.criteria).map(([key, description]) => ({ key, description: description ?? null }));
  }
  if (Array.isArray(question.criteria)) {
    return question.criteria.map((description, index) => ({ key: String(index), description: description ?? null }));
  }
  throw new TypeError("Object rubrics have no translated options.");
}
