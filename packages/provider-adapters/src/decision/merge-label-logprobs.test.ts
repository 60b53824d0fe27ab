import { describe, expect, it } from "vitest";
import { mergeLabelLogprobs } from "./merge-label-logprobs.js";

describe("mergeLabelLogprobs", () => {
  it("sums the probabilities of a label's variants (spacing, case) and ignores other tokens", () => {
    const weights = mergeLabelLogprobs(
      [
        { token: "A", logprob: Math.log(0.4) },
        { token: " A", logprob: Math.log(0.2) },
        { token: "a", logprob: Math.log(0.1) },
        { token: "\nB", logprob: Math.log(0.15) },
        { token: "AB", logprob: Math.log(0.05) },
        { token: "The", logprob: Math.log(0.1) },
      ],
      ["A", "B", "C"],
    );
    expect(weights.A).toBeCloseTo(0.7, 12);
    expect(weights.B).toBeCloseTo(0.15, 12);
    expect(weights.C).toBe(0);
  });

  it("matches true/false case-insensitively and counts a repeated token once", () => {
    const weights = mergeLabelLogprobs(
      [
        { token: "True", logprob: Math.log(0.5) },
        { token: "True", logprob: Math.log(0.5) },
        { token: " false", logprob: Math.log(0.25) },
      ],
      ["true", "false"],
    );
    expect(weights).toEqual({ true: 0.5, false: Math.exp(Math.log(0.25)) });
  });
});
