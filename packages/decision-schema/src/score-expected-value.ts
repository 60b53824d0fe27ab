/**
 * The score of a level distribution: the probability-weighted level `sum(p_i * i)` (as in
 * G-Eval). Expects a normalised distribution by level index; the result is clamped to
 * [0, n - 1] against rounding.
 *
 * @throws RangeError for an empty distribution.
 */
export function scoreExpectedValue(probabilities: readonly number[]): number {
  if (probabilities.length === 0) throw new RangeError("Cannot score an empty distribution.");
  let expected = 0;
  probabilities.forEach((probability, index) => {
    expected += probability * index;
  });
  const highest = probabilities.length - 1;
  if (!(expected > 0)) return 0;
  return expected > highest ? highest : expected;
}
