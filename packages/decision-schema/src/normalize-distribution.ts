/**
 * Renormalises non-negative weights (probabilities, summed token probabilities, stated
 * probabilities) so that they sum to 1, keeping the keys and their order. All-zero weights become
 * the uniform distribution. Huge weights (whose sum would overflow) and subnormal ones are
 * first scaled by an exact power of two.
 *
 * @throws RangeError when there are no weights or a weight is negative, NaN or infinite.
 */
export function normalizeDistribution<Key extends string>(weights: Readonly<Record<Key, number>>): Record<Key, number> {
  const keys = Object.keys(weights) as Key[];
  const normalized = normalizeWeights(keys.map((key) => weights[key]));
  // fromEntries defines own properties: a key `__proto__` stays a key (assignment would set the prototype).
  return Object.fromEntries(keys.map((key, index) => [key, normalized[index] as number])) as Record<Key, number>;
}

/**
 * {@link normalizeDistribution} for weights by position (for example score levels by index).
 *
 * @throws RangeError when there are no weights or a weight is negative, NaN or infinite.
 */
export function normalizeWeights(weights: readonly number[]): number[] {
  if (weights.length === 0) throw new RangeError("Cannot normalise an empty distribution.");
  let largest = 0;
  for (const weight of weights) {
    if (!Number.isFinite(weight) || weight < 0) {
      throw new RangeError(`Distribution weights must be finite and non-negative (got ${weight}).`);
    }
    if (weight > largest) largest = weight;
  }
  if (largest === 0) return weights.map(() => 1 / weights.length);
  // Scale by a power of two (exact) when the sum would overflow or the weights are subnormal.
  const scale = largest > 2 ** 1000 ? 2 ** -1024 : largest < 2 ** -900 ? 2 ** 900 : 1;
  let sum = 0;
  for (const weight of weights) sum += weight * scale;
  return weights.map((weight) => (weight * scale) / sum);
}
