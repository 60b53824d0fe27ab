import { describe, expect, it } from "vitest";
import { createLoginThrottle } from "./login-throttle.js";

describe("createLoginThrottle", () => {
  const settings = { accountAddressFailures: 3, addressFailures: 10, accountSlowdownAfter: 4, accountDelayMs: 100, accountMaxDelayMs: 1000, windowMs: 60_000 };

  it("blocks an (account, address) pair at its limit, but not the same account from another address", () => {
    let now = 1_000_000;
    const throttle = createLoginThrottle({ ...settings, now: () => now });
    for (let attempt = 0; attempt < 3; attempt += 1) throttle.failed("ada@example.com", "203.0.113.9");
    expect(throttle.retryAfterSeconds("ada@example.com", "203.0.113.9")).toBe(60);
    expect(throttle.retryAfterSeconds("ada@example.com", "198.51.100.7")).toBe(0);
    expect(throttle.retryAfterSeconds("bob@example.com", "203.0.113.9")).toBe(0);
    now += 60_000;
    expect(throttle.retryAfterSeconds("ada@example.com", "203.0.113.9")).toBe(0);
  });

  it("blocks an address at its limit across accounts", () => {
    const throttle = createLoginThrottle(settings);
    for (let attempt = 0; attempt < 10; attempt += 1) throttle.failed(`user${attempt}@example.com`, "203.0.113.9");
    expect(throttle.retryAfterSeconds("new@example.com", "203.0.113.9")).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds("new@example.com", "198.51.100.7")).toBe(0);
  });

  it("slows an account down from any address with a doubling, capped delay instead of locking it", () => {
    let now = 1_000_000;
    const throttle = createLoginThrottle({ ...settings, now: () => now });
    const delays: number[] = [];
    for (let attempt = 0; attempt < 9; attempt += 1) {
      delays.push(throttle.delayMs("ada@example.com", "198.51.100.7"));
      throttle.failed("ada@example.com", `203.0.113.${attempt}`);
    }
    expect(delays).toEqual([0, 0, 0, 0, 100, 200, 400, 800, 1000]);
    expect(throttle.delayMs("bob@example.com", "198.51.100.7")).toBe(0);
    // Every address failed once only: none is blocked, so the owner's right password still gets checked.
    expect(throttle.retryAfterSeconds("ada@example.com", "198.51.100.7")).toBe(0);
    now += 60_000;
    expect(throttle.delayMs("ada@example.com", "198.51.100.7")).toBe(0);
  });

  it("forgets an address's failures on an account after it logged in", () => {
    const throttle = createLoginThrottle(settings);
    for (let attempt = 0; attempt < 2; attempt += 1) throttle.failed("ada@example.com", "203.0.113.9");
    throttle.succeeded("ada@example.com", "203.0.113.9");
    throttle.failed("ada@example.com", "203.0.113.9");
    throttle.failed("ada@example.com", "203.0.113.9");
    expect(throttle.retryAfterSeconds("ada@example.com", "203.0.113.9")).toBe(0);
  });

  it("clears the account's slow-down for the address that logged in, not for the others; later failures slow it down again", () => {
    let now = 1_000_000;
    const throttle = createLoginThrottle({ ...settings, now: () => now });
    for (let attempt = 0; attempt < 7; attempt += 1) {
      throttle.failed("ada@example.com", `203.0.113.${attempt}`);
      now += 1;
    }
    expect(throttle.delayMs("ada@example.com", "198.51.100.7")).toBe(800);
    throttle.succeeded("ada@example.com", "198.51.100.7");
    now += 1;
    expect(throttle.delayMs("ada@example.com", "198.51.100.7")).toBe(0);
    expect(throttle.delayMs("ada@example.com", "192.0.2.1")).toBe(800);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      throttle.failed("ada@example.com", "203.0.113.50");
      now += 1;
    }
    expect(throttle.delayMs("ada@example.com", "198.51.100.7")).toBe(200);
  });
});
