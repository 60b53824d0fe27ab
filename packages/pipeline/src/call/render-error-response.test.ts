import { GatewayError, ProviderPassthroughError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { renderErrorResponse } from "./render-error-response.js";

describe("renderErrorResponse", () => {
  it("renders the gateway body with x-request-id and Retry-After", () => {
    const response = renderErrorResponse(new GatewayError("upstream_rate_limited", { retryAfter: "Wed, 21 Oct 2026 07:28:00 GMT" }), {
      requestId: "req_1",
    });
    expect(response.status).toBe(429);
    expect(response.headers).toEqual({ "x-request-id": "req_1", "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" });
    expect(response.body).toMatchObject({ error: { code: "upstream_rate_limited" }, request_id: "req_1" });
  });

  it("never leaks internals of an unexpected failure", () => {
    const response = renderErrorResponse(new Error("connect ECONNREFUSED postgres://admin:secret@db"), { requestId: "req_2" });
    expect(response.status).toBe(500);
    expect(JSON.stringify(response.body)).not.toMatch(/secret|ECONNREFUSED|postgres/);
    const explicit = renderErrorResponse(new GatewayError("internal_error", { message: "table usage_events missing", details: { sql: "x" } }), {
      requestId: "req_3",
    });
    expect(JSON.stringify(explicit.body)).not.toMatch(/usage_events|sql/);
  });

  it("passes a native provider's own status and payload through", () => {
    const response = renderErrorResponse(new ProviderPassthroughError({ status: 418, payload: { detail: "teapot", code: 7 } }), {
      requestId: "req_4",
    });
    expect(response.status).toBe(418);
    expect(response.body).toEqual({ detail: "teapot", code: 7 });
    expect(response.headers["x-request-id"]).toBe("req_4");
  });

  it("renders the Anthropic body on request", () => {
    const response = renderErrorResponse(new GatewayError("invalid_gateway_api_key"), { requestId: "req_5", format: "anthropic" });
    expect(response.body).toEqual({
      type: "error",
      error: { type: "authentication_error", message: expect.any(String) },
      request_id: "req_5",
    });
  });
});
