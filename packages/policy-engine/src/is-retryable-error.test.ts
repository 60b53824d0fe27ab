import { GatewayError, ProviderPassthroughError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { allowsFallback } from "./allows-fallback.js";
import { isRetryableError } from "./is-retryable-error.js";

/** An error as `mapUpstreamError` of `@gateway/provider-adapters` makes it from a provider's answer. */
const fromUpstream = (code: ConstructorParameters<typeof GatewayError>[0], upstreamStatus: number, retryable: boolean) =>
  new GatewayError(code, { retryable, details: { provider: "openai-main", upstreamStatus } });

describe("isRetryableError (the same target again)", () => {
  it("never repeats an upstream answer that repeating cannot change, whatever it became at the gateway", () => {
    // 401/403 become 502 upstream_error and 404 model_not_found, all with the fallback hint set.
    expect(isRetryableError(fromUpstream("upstream_error", 401, true))).toBe(false);
    expect(isRetryableError(fromUpstream("upstream_error", 403, true))).toBe(false);
    expect(isRetryableError(fromUpstream("model_not_found", 404, true))).toBe(false);
    expect(isRetryableError(fromUpstream("invalid_request", 400, false))).toBe(false);
    expect(isRetryableError(fromUpstream("invalid_request", 422, false))).toBe(false);
    expect(isRetryableError(new ProviderPassthroughError({ status: 400, payload: {} }))).toBe(false);
    expect(isRetryableError(new ProviderPassthroughError({ status: 401, payload: {}, retryable: false }))).toBe(false);
  });

  it("repeats upstream 408, 409, 429 and 5xx (as the providers' own SDKs do)", () => {
    expect(isRetryableError(fromUpstream("upstream_timeout", 408, true))).toBe(true);
    expect(isRetryableError(fromUpstream("invalid_request", 409, false))).toBe(true);
    expect(isRetryableError(fromUpstream("upstream_rate_limited", 429, true))).toBe(true);
    expect(isRetryableError(fromUpstream("upstream_error", 500, true))).toBe(true);
    expect(isRetryableError(fromUpstream("upstream_error", 503, true))).toBe(true);
    expect(isRetryableError(new ProviderPassthroughError({ status: 503, payload: {} }))).toBe(true);
  });

  it("gateway errors without an upstream status: the hint, 429 and 5xx; never a 4xx a repeat cannot change", () => {
    expect(isRetryableError(new GatewayError("upstream_error", { retryable: false }))).toBe(false);
    expect(isRetryableError(new GatewayError("upstream_error", { retryable: true }))).toBe(true);
    // A request the translation cannot represent: another target may serve it, this one never will.
    expect(isRetryableError(new GatewayError("unsupported_feature", { retryable: true }))).toBe(false);
    expect(isRetryableError(new GatewayError("invalid_request", { retryable: true }))).toBe(false);
    expect(isRetryableError(new GatewayError("upstream_rate_limited"))).toBe(true);
    expect(isRetryableError(new GatewayError("upstream_error"))).toBe(true);
    expect(isRetryableError(new GatewayError("service_unavailable"))).toBe(true);
    expect(isRetryableError(new GatewayError("upstream_timeout"))).toBe(true);
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

describe("allowsFallback (the route's next target)", () => {
  it("follows the adapter's hint: another connection may accept what this one refused", () => {
    expect(allowsFallback(fromUpstream("upstream_error", 401, true))).toBe(true);
    expect(allowsFallback(fromUpstream("model_not_found", 404, true))).toBe(true);
    expect(allowsFallback(new GatewayError("unsupported_feature", { retryable: true }))).toBe(true);
    expect(allowsFallback(fromUpstream("invalid_request", 400, false))).toBe(false);
    expect(allowsFallback(fromUpstream("invalid_request", 409, false))).toBe(false);
  });

  it("without a hint: 429 and 5xx, not the gateway's own outcomes; connect failures", () => {
    expect(allowsFallback(new GatewayError("upstream_rate_limited"))).toBe(true);
    expect(allowsFallback(new GatewayError("service_unavailable"))).toBe(true);
    for (const code of ["invalid_request", "client_cancelled", "request_timeout", "internal_error", "gateway_rate_limit_exceeded"] as const) {
      expect(allowsFallback(new GatewayError(code)), code).toBe(false);
    }
    expect(allowsFallback(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(allowsFallback(Object.assign(new Error("aborted"), { name: "AbortError" }))).toBe(false);
  });
});
