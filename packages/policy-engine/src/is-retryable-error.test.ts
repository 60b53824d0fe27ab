import { GatewayError, ProviderPassthroughError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { isRetryableError } from "./is-retryable-error.js";

describe("isRetryableError", () => {
  it("follows the retryable hint when the adapter sets it", () => {
    expect(isRetryableError(new GatewayError("upstream_error", { retryable: false }))).toBe(false);
    expect(isRetryableError(new GatewayError("invalid_request", { retryable: true }))).toBe(true);
  });

  it("retries 429 and 5xx from upstream, not the gateway's own outcomes or 4xx", () => {
    expect(isRetryableError(new GatewayError("upstream_rate_limited"))).toBe(true);
    expect(isRetryableError(new GatewayError("upstream_error"))).toBe(true);
    expect(isRetryableError(new GatewayError("service_unavailable"))).toBe(true);
    expect(isRetryableError(new GatewayError("upstream_timeout"))).toBe(true);
    expect(isRetryableError(new ProviderPassthroughError({ status: 503, payload: {} }))).toBe(true);
    expect(isRetryableError(new ProviderPassthroughError({ status: 400, payload: {} }))).toBe(false);
    for (const code of ["invalid_request", "client_cancelled", "request_timeout", "internal_error", "gateway_rate_limit_exceeded"] as const) {
      expect(isRetryableError(new GatewayError(code)), code).toBe(false);
    }
  });

  it("retries connect failures, also wrapped as a cause; not aborts or plain errors", () => {
    expect(isRetryableError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isRetryableError(new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "UND_ERR_CONNECT_TIMEOUT" }) }))).toBe(true);
    expect(isRetryableError(Object.assign(new Error("aborted"), { name: "AbortError" }))).toBe(false);
    expect(isRetryableError(new Error("boom"))).toBe(false);
    expect(isRetryableError("nope")).toBe(false);
  });
});
