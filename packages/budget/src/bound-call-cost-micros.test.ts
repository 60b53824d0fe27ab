import { describe, expect, it } from "vitest";
import { boundCallCostMicros, boundOutputTokens } from "./bound-call-cost-micros.js";
import { computeCostMicros } from "./compute-cost-micros.js";

describe("boundCallCostMicros", () => {
  it("prices input at the highest input-side price and every choice at the output cap", () => {
    const price = { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 1.25 };
    expect(boundCallCostMicros({ inputTokens: 1000, maxOutputTokens: 100, price })).toBe(1250 + 200);
    expect(boundCallCostMicros({ inputTokens: 1000, maxOutputTokens: 100, choices: 3, price })).toBe(1250 + 600);
  });

  it("bounds output by the context window without subtracting the input bound from it", () => {
    // An input bound of 9,000 may be a real input of 100: the output can then reach 9,900.
    const price = { input: 1, output: 10, contextWindow: 10_000 };
    const bound = boundCallCostMicros({ inputTokens: 9000, price })!;
    expect(bound).toBe(9000 + 10 * 10_000);
    expect(computeCostMicros({ inputTokens: 100, outputTokens: 9900, cacheReadTokens: 0, cacheWriteTokens: 0 }, price)).toBeLessThanOrEqual(bound);
  });

  it("has no bound without a request cap, a maximum output or a context window", () => {
    expect(boundOutputTokens({ inputTokens: 10, price: { input: 1, output: 1 } })).toBeNull();
    expect(boundCallCostMicros({ inputTokens: 10, price: { input: 1, output: 1 } })).toBeNull();
    expect(boundCallCostMicros({ inputTokens: 10, maxOutputTokens: 5, price: { input: 1, output: 1 } })).toBe(15);
    expect(boundOutputTokens({ inputTokens: 10, maxOutputTokens: 50_000, price: { input: 1, output: 1, maxOutputTokens: 8192 } })).toBe(8192);
  });
});
