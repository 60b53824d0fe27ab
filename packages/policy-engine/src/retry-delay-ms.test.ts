import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRetryAfterMs, retryDelayMs } from "./retry-delay-ms.js";

describe("retryDelayMs", () => {
  it("uses full jitter within [0, min(maxMs, baseMs * 2^(attempt-1))) (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 0.9999999, noNaN: true }), (attempt, draw) => {
        const delay = retryDelayMs({ attempt, baseMs: 100, maxMs: 3000, random: () => draw });
        const ceiling = Math.min(3000, 100 * 2 ** (attempt - 1));
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }),
      { seed: 5 },
    );
    expect(retryDelayMs({ attempt: 3, baseMs: 100, maxMs: 3000, random: () => 0.5 })).toBe(200);
  });

  it("honours Retry-After in seconds or as an HTTP date, even beyond maxMs", () => {
    expect(retryDelayMs({ attempt: 1, retryAfter: "2", maxMs: 1000, random: () => 0 })).toBe(2000);
    expect(retryDelayMs({ attempt: 1, retryAfter: 1.5 })).toBe(1500);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryDelayMs({ attempt: 1, retryAfter: "Wed, 01 Jan 2025 00:00:03 GMT", now })).toBe(3000);
  });

  it("caps the delay by the remaining deadline", () => {
    expect(retryDelayMs({ attempt: 1, retryAfter: "30", remainingMs: 1200 })).toBe(1200);
    expect(retryDelayMs({ attempt: 5, random: () => 0.99, remainingMs: 50 })).toBe(50);
    expect(retryDelayMs({ attempt: 1, retryAfter: "1", remainingMs: -10 })).toBe(0);
  });

  it("falls back to jitter when Retry-After is unreadable", () => {
    expect(retryDelayMs({ attempt: 1, retryAfter: "soon", baseMs: 100, random: () => 0.5 })).toBe(50);
  });
});

describe("parseRetryAfterMs", () => {
  it("parses seconds and dates, never negative", () => {
    const now = Date.parse("2025-01-01T00:00:10Z");
    expect(parseRetryAfterMs("0", now)).toBe(0);
    expect(parseRetryAfterMs(" 7 ", now)).toBe(7000);
    expect(parseRetryAfterMs("Wed, 01 Jan 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfterMs("", now)).toBeNull();
    expect(parseRetryAfterMs("-1", now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
  });
});
