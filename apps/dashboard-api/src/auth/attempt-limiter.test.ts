import { describe, expect, it } from "vitest";
import { createAttemptLimiter } from "./attempt-limiter.js";

describe("createAttemptLimiter", () => {
  it("blocks a key at its limit until the oldest hit leaves the window", () => {
    let now = 1_000_000;
    const limiter = createAttemptLimiter({ limit: 2, windowMs: 10_000, now: () => now });
    limiter.hit("a");
    now += 4_000;
    limiter.hit("a");
    expect(limiter.retryAfterSeconds("a")).toBe(6);
    expect(limiter.retryAfterSeconds("b")).toBe(0);
    now += 6_000;
    expect(limiter.retryAfterSeconds("a")).toBe(0);
    limiter.hit("a");
    expect(limiter.retryAfterSeconds("a")).toBe(4);
    limiter.reset("a");
    expect(limiter.retryAfterSeconds("a")).toBe(0);
  });
});
