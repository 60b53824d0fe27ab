import { describe, expect, it } from "vitest";
import { describeScoreScale } from "./describe-score-scale.js";

describe("describeScoreScale", () => {
  it("describes an array of levels as keys 0..n-1 and range [0, n-1]", () => {
    expect(describeScoreScale(["a", null, { x: 1 }])).toEqual({ kind: "levels", keys: ["0", "1", "2"], min: 0, max: 2 });
  });

  it("describes a rubric by its keys as written, their scores and range", () => {
    expect(describeScoreScale({ "10": "best", "-1.5": "worst", "2e0": "fair" })).toEqual({
      kind: "rubric",
      keys: ["10", "-1.5", "2e0"],
      scores: [10, -1.5, 2],
      min: -1.5,
      max: 10,
    });
  });

  it("throws for a rubric key that is not a number (an unvalidated question)", () => {
    expect(() => describeScoreScale({ a: "x", "1": "y" })).toThrow(RangeError);
  });
});
