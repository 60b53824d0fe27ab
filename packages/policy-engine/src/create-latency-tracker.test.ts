import { describe, expect, it } from "vitest";
import { createLatencyTracker } from "./create-latency-tracker.js";

describe("createLatencyTracker", () => {
  it("computes an exponentially weighted moving average", () => {
    const tracker = createLatencyTracker({ alpha: 0.25 });
    expect(tracker.estimate("t")).toBeUndefined();
    tracker.record("t", 100);
    expect(tracker.estimate("t")).toBe(100);
    tracker.record("t", 500);
    expect(tracker.estimate("t")).toBe(200);
    tracker.record("t", Number.NaN);
    tracker.record("t", -5);
    expect(tracker.estimate("t")).toBe(200);
  });

  it("rejects an invalid alpha and bounds its size", () => {
    expect(() => createLatencyTracker({ alpha: 0 })).toThrow(RangeError);
    const tracker = createLatencyTracker({ maxEntries: 2 });
    tracker.record("a", 1);
    tracker.record("b", 1);
    tracker.record("c", 1);
    expect(tracker.estimate("a")).toBeUndefined();
    expect(tracker.estimate("c")).toBe(1);
  });
});
