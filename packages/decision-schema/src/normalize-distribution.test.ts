import { describe, expect, it } from "vitest";
import { normalizeDistribution, normalizeWeights } from "./normalize-distribution.js";

describe("normalizeDistribution", () => {
  it("divides by the sum and keeps keys and order", () => {
    const result = normalizeDistribution({ b: 1, a: 3, c: 0 });
    expect(Object.keys(result)).toEqual(["b", "a", "c"]);
    expect(result.b).toBeCloseTo(0.25, 15);
    expect(result.a).toBeCloseTo(0.75, 15);
    expect(result.c).toBe(0);
  });

  it("turns all-zero weights into the uniform distribution", () => {
    expect(normalizeDistribution({ a: 0, b: 0, c: 0, d: 0 })).toEqual({ a: 0.25, b: 0.25, c: 0.25, d: 0.25 });
  });

  it("handles weights so large that their sum overflows, and tiny ones", () => {
    const huge = normalizeDistribution({ a: Number.MAX_VALUE, b: Number.MAX_VALUE });
    expect(huge).toEqual({ a: 0.5, b: 0.5 });
    const tiny = normalizeDistribution({ a: 5e-324, b: 15e-324 });
    expect(tiny.a).toBeCloseTo(0.25, 15);
  });

  it("rejects negative, NaN and infinite weights and an empty record", () => {
    expect(() => normalizeDistribution({ a: -0.1, b: 1 })).toThrow(RangeError);
    expect(() => normalizeDistribution({ a: Number.NaN })).toThrow(RangeError);
    expect(() => normalizeDistribution({ a: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => normalizeDistribution({})).toThrow(RangeError);
  });
});

describe("normalizeWeights", () => {
  it("normalises weights by position", () => {
    expect(normalizeWeights([2, 2, 4])).toEqual([0.25, 0.25, 0.5]);
    expect(normalizeWeights([0, 0])).toEqual([0.5, 0.5]);
  });
});

describe("normalizeDistribution with a key named __proto__", () => {
  it("keeps it as a key of the result", () => {
    const result = normalizeDistribution(JSON.parse('{"__proto__":1,"b":3}') as Record<string, number>);
    expect(JSON.stringify(result)).toBe('{"__proto__":0.25,"b":0.75}');
  });
});
