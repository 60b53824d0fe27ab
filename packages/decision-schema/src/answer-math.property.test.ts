import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildChoiceAnswer } from "./build-choice-answer.js";
import { buildScoreAnswer } from "./build-score-answer.js";
import { choiceConfidence } from "./choice-confidence.js";
import { normalizeDistribution, normalizeWeights } from "./normalize-distribution.js";
import { scoreConfidence } from "./score-confidence.js";
import { scoreExpectedValue } from "./score-expected-value.js";

/** Non-negative finite weights, including zeros, subnormals and huge values. */
const weight = fc.oneof(
  fc.constant(0),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true }),
);
const weights = fc.array(weight, { minLength: 1, maxLength: 255 });

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

describe("answer math properties", () => {
  it("normalised probabilities are in [0, 1] and sum to 1 within 1e-9", () => {
    fc.assert(
      fc.property(weights, (values) => {
        const probabilities = normalizeWeights(values);
        expect(Math.abs(sum(probabilities) - 1)).toBeLessThanOrEqual(1e-9);
        for (const probability of probabilities) expect(probability >= 0 && probability <= 1).toBe(true);
      }),
    );
  });

  it("normalizeDistribution over named labels sums to 1 within 1e-9", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), weight, { minKeys: 1, maxKeys: 64 }), (record) => {
        const distribution = normalizeDistribution(record);
        expect(Object.keys(distribution)).toEqual(Object.keys(record));
        expect(Math.abs(sum(Object.values(distribution)) - 1)).toBeLessThanOrEqual(1e-9);
      }),
    );
  });

  it("choice confidence stays in [0, 1]", () => {
    fc.assert(
      fc.property(weights, (values) => {
        const confidence = choiceConfidence(normalizeWeights(values));
        expect(confidence >= 0 && confidence <= 1).toBe(true);
      }),
    );
  });

  it("score stays in [0, n - 1] and score confidence in [0, 1]", () => {
    fc.assert(
      fc.property(weights, (values) => {
        const probabilities = normalizeWeights(values);
        const score = scoreExpectedValue(probabilities);
        expect(score >= 0 && score <= values.length - 1).toBe(true);
        const confidence = scoreConfidence(probabilities);
        expect(confidence >= 0 && confidence <= 1).toBe(true);
      }),
    );
  });

  it("a certain distribution has confidence 1 and the certain level as score", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 255 }).chain((count) => fc.tuple(fc.constant(count), fc.nat({ max: count - 1 }))), ([count, level]) => {
        const probabilities = Array.from({ length: count }, (_, index) => (index === level ? 1 : 0));
        expect(scoreExpectedValue(probabilities)).toBe(level);
        expect(scoreConfidence(probabilities)).toBe(1);
        expect(choiceConfidence(probabilities)).toBe(1);
      }),
    );
  });

  it("built answers keep their invariants", () => {
    fc.assert(
      fc.property(fc.array(weight, { minLength: 2, maxLength: 255 }), (values) => {
        const criteria = Object.fromEntries(values.map((_, index) => [`choice${index}`, null]));
        const choice = buildChoiceAnswer({ question: { criteria }, weights: Object.fromEntries(values.map((value, index) => [`choice${index}`, value])) });
        const probabilities = Object.values(choice.probabilities ?? {});
        expect(probabilities).toHaveLength(values.length);
        expect(Math.abs(sum(probabilities) - 1)).toBeLessThanOrEqual(1e-9);
        expect(choice.probabilities?.[choice.choice]).toBe(Math.max(...probabilities));
        const score = buildScoreAnswer({ question: { criteria: values.map((_, index) => `level ${index}`) }, weights: values });
        expect(score.score >= 0 && score.score <= values.length - 1).toBe(true);
        expect(score.confidence! >= 0 && score.confidence! <= 1).toBe(true);
      }),
    );
  });
});
