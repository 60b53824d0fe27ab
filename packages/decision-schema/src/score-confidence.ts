import { clampUnit } from "./choice-confidence.js";

/**
 * The confidence of a score answer: `clamp(1 - E|i - mode| / D, 0, 1)`, where `mode` is the most
 * probable level (the lowest on ties) and D is the mean absolute deviation about the mean of the
 * uniform distribution over levels 0..n-1 (so the uniform distribution scores at most 0 and a
 * certain one 1). Expects a normalised distribution by level index. A single level is certain (1).
 *
 * @throws RangeError for an empty distribution.
 */
export function scoreConfidence(probabilities: readonly number[]): number {
  const count = probabilities.length;
  if (count === 0) throw new RangeError("Cannot compute the confidence of an empty distribution.");
  if (count === 1) return 1;
  let mode = 0;
  probabilities.forEach((probability, index) => {
    if (probability > (probabilities[mode] as number)) mode = index;
  });
  let expectedDistance = 0;
  probabilities.forEach((probability, index) => {
    expectedDistance += probability * Math.abs(index - mode);
  });
  return clampUnit(1 - expectedDistance / uniformMeanAbsoluteDeviation(count));
}

/**
 * The mean absolute deviation about the mean of the uniform distribution over 0..n-1:
 * n/4 for even n, (n² - 1) / (4n) for odd n.
 */
export function uniformMeanAbsoluteDeviation(count: number): number {
  return count % 2 === 0 ? count / 4 : (count * count - 1) / (4 * count);
}
