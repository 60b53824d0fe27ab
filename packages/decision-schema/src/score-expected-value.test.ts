import { describe, expect, it } from "vitest";
import { scoreExpectedValue } from "./score-expected-value.js";

describe("scoreExpectedValue", () => {
  it("is the probability-weighted level sum(p_i * i)", () => {
    // 0 * 0.2 + 1 * 0.5 + 2 * 0.3 = 1.1
    expect(scoreExpectedValue([0.2, 0.5, 0.3])).toBeCloseTo(1.1, 12);
    // 0.25 * 1 + 0.25 * 2 + 0.5 * 4 = 2.75
    expect(scoreExpectedValue([0, 0.25, 0.25, 0, 0.5])).toBeCloseTo(2.75, 12);
  });

  it("is the level itself for a certain distribution", () => {
    expect(scoreExpectedValue([0, 0, 1])).toBe(2);
    expect(scoreExpectedValue([1, 0, 0])).toBe(0);
  });

  it("throws for an empty distribution", () => {
    expect(() => scoreExpectedValue([])).toThrow(RangeError);
  });
});
