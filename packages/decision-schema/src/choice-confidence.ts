/**
 * The confidence of a choice answer: `(n * p_max - 1) / (n - 1)` for n choices, 0 for the
 * uniform distribution and 1 for a certain one. Expects a normalised distribution (see
 * `normalizeDistribution`); the result is clamped to [0, 1] against rounding. A single choice is
 * certain (1).
 *
 * @throws RangeError for an empty distribution.
 */
export function choiceConfidence(probabilities: readonly number[] | Readonly<Record<string, number>>): number {
  const values = Array.isArray(probabilities) ? (probabilities as readonly number[]) : Object.values(probabilities);
  const count = values.length;
  if (count === 0) throw new RangeError("Cannot compute the confidence of an empty distribution.");
  if (count === 1) return 1;
  let largest = 0;
  for (const value of values) if (value > largest) largest = value;
  return clampUnit((count * largest - 1) / (count - 1));
}

/** Clamps to [0, 1]; NaN becomes 0. */
export function clampUnit(value: number): number {
  if (!(value > 0)) return 0;
  return value > 1 ? 1 : value;
}
