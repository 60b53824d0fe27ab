import { describe, expect, it } from "vitest";
import { estimateLatencyPercentile } from "./estimate-latency-percentile.js";

const boundsMs = [100, 500, 1000];

describe("estimateLatencyPercentile", () => {
  it("answers the upper bound of the bucket that holds the percentile's call", () => {
    // 90 calls <= 100 ms, 8 in (100, 500], 2 in (500, 1000].
    const histogram = { boundsMs, counts: [90, 8, 2, 0], maxMs: 900 };
    expect(estimateLatencyPercentile(histogram, 0.5)).toBe(100);
    expect(estimateLatencyPercentile(histogram, 0.9)).toBe(100);
    expect(estimateLatencyPercentile(histogram, 0.95)).toBe(500);
    expect(estimateLatencyPercentile(histogram, 0.99)).toBe(900);
  });

  it("never answers more than the slowest call, and the slowest call for the overflow bucket", () => {
    expect(estimateLatencyPercentile({ boundsMs, counts: [0, 3, 0, 0], maxMs: 130 }, 0.95)).toBe(130);
    expect(estimateLatencyPercentile({ boundsMs, counts: [1, 0, 0, 1], maxMs: 42_000 }, 0.95)).toBe(42_000);
  });

  it("answers null without calls", () => {
    expect(estimateLatencyPercentile({ boundsMs, counts: [0, 0, 0, 0], maxMs: 0 }, 0.5)).toBeNull();
  });
});
