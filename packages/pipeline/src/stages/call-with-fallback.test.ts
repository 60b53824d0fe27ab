import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { callWithFallback } from "./call-with-fallback.js";

const retryable = () => new GatewayError("upstream_error", { retryable: true });
const final = () => new GatewayError("invalid_request", { retryable: false });
const farDeadline = () => Date.now() + 60_000;

describe("callWithFallback", () => {
  it("retries a retryable error on the same target, then falls back to the next", async () => {
    const calls: string[] = [];
    const outcome = await callWithFallback({
      targets: ["a", "b"],
      maxAttemptsPerTarget: 2,
      deadline: farDeadline(),
      backoffMs: 1,
      call: async (target, attempt) => {
        calls.push(`${target}${attempt}`);
        if (target === "a") throw retryable();
        return "ok";
      },
    });
    expect(calls).toEqual(["a1", "a2", "b1"]);
    expect(outcome).toEqual({ result: "ok", target: "b", attempts: 3 });
  });

  it("stops at once on a non-retryable error", async () => {
    const calls: string[] = [];
    await expect(
      callWithFallback({
        targets: ["a", "b"],
        maxAttemptsPerTarget: 3,
        deadline: farDeadline(),
        call: async (target) => {
          calls.push(target);
          throw final();
        },
      }),
    ).rejects.toMatchObject({ code: "invalid_request" });
    expect(calls).toEqual(["a"]);
  });

  it("throws the last error when every target failed, with its Retry-After", async () => {
    await expect(
      callWithFallback({
        targets: ["a"],
        maxAttemptsPerTarget: 1,
        deadline: farDeadline(),
        call: async () => {
          throw new GatewayError("upstream_rate_limited", { retryAfter: "120", retryable: true });
        },
      }),
    ).rejects.toMatchObject({ code: "upstream_rate_limited", retryAfter: "120" });
  });

  it("does not wait for a Retry-After that ends after the deadline; moves to the next target", async () => {
    const calls: string[] = [];
    const outcome = await callWithFallback({
      targets: ["a", "b"],
      maxAttemptsPerTarget: 2,
      deadline: farDeadline(),
      call: async (target) => {
        calls.push(target);
        if (target === "a") throw new GatewayError("upstream_rate_limited", { retryAfter: 3600, retryable: true });
        return "ok";
      },
    });
    expect(calls).toEqual(["a", "b"]);
    expect(outcome.result).toBe("ok");
  });

  it("never repeats an upstream 401 on the same target; falls back to the next (the route's rule)", async () => {
    const calls: string[] = [];
    const outcome = await callWithFallback({
      targets: ["a", "b"],
      maxAttemptsPerTarget: 3,
      deadline: farDeadline(),
      backoffMs: 1,
      call: async (target, attempt) => {
        calls.push(`${target}${attempt}`);
        // What mapUpstreamError makes of a provider's 401: a 502 with the fallback hint.
        if (target === "a") throw new GatewayError("upstream_error", { retryable: true, details: { provider: "a", upstreamStatus: 401 } });
        return "ok";
      },
    });
    expect(calls).toEqual(["a1", "b1"]);
    expect(outcome).toEqual({ result: "ok", target: "b", attempts: 2 });
  });

  it("repeats an upstream 409 on the same target but does not fall back on it", async () => {
    const calls: string[] = [];
    await expect(
      callWithFallback({
        targets: ["a", "b"],
        maxAttemptsPerTarget: 2,
        deadline: farDeadline(),
        backoffMs: 1,
        call: async (target, attempt) => {
          calls.push(`${target}${attempt}`);
          throw new GatewayError("invalid_request", { retryable: false, details: { provider: target, upstreamStatus: 409 } });
        },
      }),
    ).rejects.toMatchObject({ code: "invalid_request" });
    expect(calls).toEqual(["a1", "a2"]);
  });
});
