import { describe, expect, it } from "vitest";
import { scoreConfidence, uniformMeanAbsoluteDeviation } from "./score-confidence.js";

describe("uniformMeanAbsoluteDeviation", () => {
  it("is the mean |i - (n-1)/2| over 0..n-1", () => {
    expect(uniformMeanAbsoluteDeviation(2)).toBe(0.5); // |0-.5|, |1-.5|
    expect(uniformMeanAbsoluteDeviation(3)).toBeCloseTo(2 / 3, 15); // 1, 0, 1
    expect(uniformMeanAbsoluteDeviation(4)).toBe(1); // 1.5, .5, .5, 1.5
    expect(uniformMeanAbsoluteDeviation(5)).toBeCloseTo(1.2, 15); // 2, 1, 0, 1, 2
  });
});

describe("scoreConfidence", () => {
  it("is clamp(1 - E|i - mode| / D, 0, 1)", () => {
    // mode 1; E|i - 1| = 0.2 + 0.3 = 0.5; D = 2/3; 1 - 0.75 = 0.25
    expect(scoreConfidence([0.2, 0.5, 0.3])).toBeCloseTo(0.25, 12);
    // mode 0; E|i| = 0.1 * 1 + 0.1 * 3 = 0.4; D(4) = 1; 0.6
    expect(scoreConfidence([0.8, 0.1, 0, 0.1])).toBeCloseTo(0.6, 12);
  });

  it("is 1 for a certain distribution and clamped to 0 for a spread one", () => {
    expect(scoreConfidence([0, 0, 1, 0, 0])).toBe(1);
    // mode 0 (lowest on ties); E|i| = 1; D = 2/3 -> 1 - 1.5 < 0 -> 0
    expect(scoreConfidence([1 / 3, 1 / 3, 1 / 3])).toBe(0);
    // extremes: mode 0, E|i| = 0.5 * 4 = 2; D(5) = 1.2 -> negative -> 0
    expect(scoreConfidence([0.5, 0, 0, 0, 0.5])).toBe(0);
  });

  it("is 1 for a single level and throws for none", () => {
    expect(scoreConfidence([1])).toBe(1);
    expect(() => scoreConfidence([])).toThrow(RangeError);
  });
});
