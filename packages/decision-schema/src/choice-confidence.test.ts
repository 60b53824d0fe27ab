import { describe, expect, it } from "vitest";
import { choiceConfidence } from "./choice-confidence.js";

describe("choiceConfidence", () => {
  it("is (n * p_max - 1) / (n - 1)", () => {
    // n = 4, p_max = 0.7: (2.8 - 1) / 3 = 0.6
    expect(choiceConfidence([0.7, 0.1, 0.1, 0.1])).toBeCloseTo(0.6, 12);
    // n = 2, p_max = 0.9: (1.8 - 1) / 1 = 0.8
    expect(choiceConfidence({ yes: 0.1, no: 0.9 })).toBeCloseTo(0.8, 12);
  });

  it("is 0 for the uniform distribution and 1 for a certain one", () => {
    expect(choiceConfidence([1 / 3, 1 / 3, 1 / 3])).toBeCloseTo(0, 12);
    expect(choiceConfidence({ a: 0, b: 1, c: 0 })).toBe(1);
  });

  it("is 1 for a single choice and throws for none", () => {
    expect(choiceConfidence([1])).toBe(1);
    expect(() => choiceConfidence([])).toThrow(RangeError);
  });
});
