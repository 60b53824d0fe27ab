import { describe, expect, it } from "vitest";
import { computeCostMicros, countUsageTokens } from "./compute-cost-micros.js";
import { defaultPriceTable } from "./default-price-table.js";
import { estimateMaxCostMicros, resolveMaxOutputTokens } from "./estimate-max-cost-micros.js";
import { resolveModelPrice } from "./resolve-model-price.js";

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe("computeCostMicros", () => {
  it("prices each token kind at its own per-million price, in micro-USD", () => {
    // 1000 × 3 + 200 × 15 + 5000 × 0.3 + 400 × 3.75 = 3000 + 3000 + 1500 + 1500
    expect(computeCostMicros(usage(1000, 200, 5000, 400), { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBe(9000);
  });

  it("is exact on prices that are not representable in binary floating point", () => {
    // 100 × 0.15 is 15.000000000000002 in floating point; the cost must still be 15.
    expect(computeCostMicros(usage(100, 0), { input: 0.15, output: 0.6 })).toBe(15);
    expect(computeCostMicros(usage(1_000_000, 1_000_000), { input: 0.1, output: 0.7 })).toBe(800_000);
  });

  it("rounds a fraction of a micro-USD up", () => {
    expect(computeCostMicros(usage(1, 0), { input: 0.15, output: 0.6 })).toBe(1);
    expect(computeCostMicros(usage(7, 0), { input: 0.15, output: 0.6 })).toBe(2); // 1.05
    expect(computeCostMicros(usage(0, 0), { input: 0.15, output: 0.6 })).toBe(0);
  });

  it("bills cache tokens at the input price when the price has no cache prices", () => {
    expect(computeCostMicros(usage(0, 0, 1000, 1000), { input: 2, output: 8 })).toBe(4000);
    expect(computeCostMicros(usage(0, 0, 1000, 0), { input: 2, output: 8, cacheRead: 0.5 })).toBe(500);
  });

  it("rejects negative or fractional token counts and negative prices", () => {
    expect(() => computeCostMicros(usage(-1, 0), { input: 1, output: 1 })).toThrow(RangeError);
    expect(() => computeCostMicros(usage(1.5, 0), { input: 1, output: 1 })).toThrow(RangeError);
    expect(() => computeCostMicros(usage(1, 0), { input: -1, output: 1 })).toThrow(RangeError);
  });

  it("counts all token kinds for rate limits", () => {
    expect(countUsageTokens(usage(10, 20, 30, 40))).toBe(100);
  });
});

describe("estimateMaxCostMicros", () => {
  const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 8192, contextWindow: 200_000 };

  it("bounds input at the highest input-side price and output at the request's cap", () => {
    // 1000 × 3.75 + 500 × 15
    expect(estimateMaxCostMicros({ inputTokens: 1000, maxOutputTokens: 500, price })).toBe(3750 + 7500);
  });

  it("is never below the cost of any usage that fits in the bound", () => {
    const estimate = estimateMaxCostMicros({ inputTokens: 1000, maxOutputTokens: 500, price });
    for (const split of [usage(1000, 500), usage(0, 500, 1000, 0), usage(0, 500, 0, 1000), usage(400, 500, 300, 300)]) {
      expect(computeCostMicros(split, price)).toBeLessThanOrEqual(estimate);
    }
  });

  it("falls back to the model's output limit, then to the rest of the context window, then to the fallback", () => {
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: null, price })).toBe(8192);
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: 100_000, price })).toBe(8192);
    expect(resolveMaxOutputTokens({ inputTokens: 1000, price: { input: 1, output: 1, contextWindow: 5000 } })).toBe(4000);
    expect(resolveMaxOutputTokens({ inputTokens: 1000, price: { input: 1, output: 1 } })).toBe(16_384);
    expect(resolveMaxOutputTokens({ inputTokens: 1000, price: { input: 1, output: 1 }, fallbackMaxOutputTokens: 10 })).toBe(10);
    expect(estimateMaxCostMicros({ inputTokens: 1000, price: { input: 1, output: 2, contextWindow: 1500 } })).toBe(1000 + 1000);
  });
});

describe("estimates from a caller's cap beyond its domain", () => {
  const unbounded = { input: 0.15, output: 0.6 };

  it("counts a cap beyond 2^53 - 1 as 2^53 - 1 instead of throwing", () => {
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: 9007199254740993, price: unbounded })).toBe(Number.MAX_SAFE_INTEGER);
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: 1e300, price: unbounded })).toBe(Number.MAX_SAFE_INTEGER);
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: Number.POSITIVE_INFINITY, price: unbounded })).toBe(Number.MAX_SAFE_INTEGER);
    // 2^53 - 1 tokens at $0.60 per million: about $5.4e9, a reservation no budget admits.
    expect(estimateMaxCostMicros({ inputTokens: 10, maxOutputTokens: 1e300, price: unbounded })).toBeGreaterThan(5e15);
  });

  it("keeps a smaller model bound and leaves out a cap that is not a number >= 0", () => {
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: 1e300, price: { input: 1, output: 1, maxOutputTokens: 8192 } })).toBe(8192);
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: Number.NaN, price: unbounded })).toBe(16_384);
    expect(resolveMaxOutputTokens({ inputTokens: 10, maxOutputTokens: -5, price: unbounded })).toBe(16_384);
  });
});

describe("resolveModelPrice", () => {
  it("prefers the connection's price over the default table", () => {
    const own = { input: 1, output: 2 };
    expect(resolveModelPrice({ model: "openai/gpt-4o-mini", connectionPrices: { "openai/gpt-4o-mini": own } })).toBe(own);
    expect(resolveModelPrice({ model: "openai/gpt-4o-mini", connectionPrices: {} })).toBe(defaultPriceTable["openai/gpt-4o-mini"]);
  });

  it("returns null for unknown models and when defaults are disabled", () => {
    expect(resolveModelPrice({ model: "acme/unknown" })).toBeNull();
    expect(resolveModelPrice({ model: "openai/gpt-4o-mini", defaultPrices: {} })).toBeNull();
    expect(resolveModelPrice({ model: "toString" })).toBeNull();
  });

  it("has cache prices for every Anthropic default and a cache-read price for every OpenAI default", () => {
    for (const [model, price] of Object.entries(defaultPriceTable)) {
      expect(price.cacheRead, model).toBeLessThan(price.input);
      if (model.startsWith("anthropic/")) expect(price.cacheWrite, model).toBeGreaterThan(price.input);
    }
  });
});
