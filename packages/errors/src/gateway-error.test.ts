import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  GatewayError,
  ProviderPassthroughError,
  errorResponseHeaders,
  errorStatusByCode,
  fromZodError,
  normalizeError,
  renderAnthropicErrorBody,
  renderDashboardErrorBody,
  renderGatewayErrorBody,
  statusForCode,
} from "./index.js";

describe("code to status table", () => {
  it.each([
    ["invalid_request", 400],
    ["unsupported_feature", 400],
    ["previous_response_not_found", 400],
    ["invalid_gateway_api_key", 401],
    ["permission_denied", 403],
    ["model_not_allowed", 403],
    ["tool_not_allowed", 403],
    ["guardrail_blocked", 403],
    ["model_not_found", 404],
    ["tool_not_found", 404],
    ["content_not_captured", 404],
    ["request_timeout", 408],
    ["request_too_large", 413],
    ["request_headers_too_large", 431],
    ["provider_limit_exceeded", 422],
    ["hard_budget_exceeded", 424],
    ["hard_budget_decision_unbounded", 424],
    ["hard_budget_unbounded_request", 424],
    ["mcp_authorization_failed", 424],
    ["gateway_rate_limit_exceeded", 429],
    ["internal_error", 500],
    ["upstream_error", 502],
    ["service_unavailable", 503],
    ["upstream_timeout", 504],
  ] as const)("%s answers %i", (code, status) => {
    expect(statusForCode(code)).toBe(status);
    expect(new GatewayError(code).status).toBe(status);
  });

  it("gives every code a non-empty default message", () => {
    for (const code of Object.keys(errorStatusByCode) as (keyof typeof errorStatusByCode)[]) {
      expect(new GatewayError(code).message.length).toBeGreaterThan(0);
    }
  });
});

describe("GatewayError.isInstance", () => {
  it("recognises errors from another copy of the package by the shared marker", () => {
    const foreign = Object.create(Error.prototype) as Record<symbol | string, unknown>;
    Object.defineProperty(foreign, Symbol.for("@gateway/errors.GatewayError"), { value: true });
    expect(GatewayError.isInstance(foreign)).toBe(true);
    expect(GatewayError.isInstance(new Error("x"))).toBe(false);
    expect(GatewayError.isInstance(null)).toBe(false);
  });
});

describe("normalizeError", () => {
  it("keeps unknown throws only as cause behind a generic 500", () => {
    const original = new Error("database password is hunter2 at /srv/app.js:12");
    const normalized = normalizeError(original);
    expect(normalized.status).toBe(500);
    expect(normalized.code).toBe("internal_error");
    expect(normalized.cause).toBe(original);
    const rendered = JSON.stringify(renderGatewayErrorBody(normalized, "req_1"));
    expect(rendered).not.toContain("hunter2");
    expect(rendered).not.toContain("app.js");
  });

  it("maps body-parser errors to 413 and 400", () => {
    expect(normalizeError({ type: "entity.too.large", status: 413 }).code).toBe("request_too_large");
    expect(normalizeError({ type: "entity.parse.failed", status: 400 }).code).toBe("invalid_request");
  });

  it("maps Express's undecodable path parameter (a URIError marked 400) to 400, any other URIError to 500", () => {
    const undecodable = Object.assign(new URIError("Failed to decode param '%ZZ'"), { status: 400 });
    expect(normalizeError(undecodable)).toMatchObject({ status: 400, code: "invalid_request" });
    expect(normalizeError(undecodable).message).not.toContain("%ZZ");
    expect(normalizeError(new URIError("URI malformed")).code).toBe("internal_error");
  });

  it("passes GatewayErrors through unchanged", () => {
    const error = new GatewayError("model_not_found");
    expect(normalizeError(error)).toBe(error);
  });

  it("turns strings and other primitives into internal errors", () => {
    expect(normalizeError("boom").code).toBe("internal_error");
    expect(normalizeError(undefined).code).toBe("internal_error");
  });
});

describe("fromZodError", () => {
  const schema = z.object({
    questions: z.record(z.string(), z.object({ criteria: z.array(z.string()).min(2) })),
    items: z.array(z.number()),
  });

  it("sets param to the dotted failing path with array indexes", () => {
    const result = schema.safeParse({ questions: { q1: { criteria: ["a"] } }, items: [1] });
    expect(result.success).toBe(false);
    const error = fromZodError(result.error!);
    expect(error.code).toBe("invalid_request");
    expect(error.status).toBe(400);
    expect(error.param).toBe("questions.q1.criteria");
    expect(error.details?.issues).toHaveLength(1);
  });

  it("renders nested array indexes in brackets", () => {
    const result = schema.safeParse({ questions: {}, items: [1, "x"] });
    expect(fromZodError(result.error!).param).toBe("items[1]");
  });

  it("keeps a lone top-level index as an integer", () => {
    const result = z.array(z.string()).safeParse([1]);
    expect(fromZodError(result.error!).param).toBe(0);
  });
});

describe("renderers", () => {
  const error = new GatewayError("model_not_found", { message: "No such model.", param: "model" });

  it("renders the gateway body of the spec", () => {
    expect(renderGatewayErrorBody(error, "req_abc")).toEqual({
      error: { message: "No such model.", code: "model_not_found", type: "not_found_error", param: "model", details: null },
      request_id: "req_abc",
    });
  });

  it("never renders the routing hint: an upstream failure's body holds only caller-safe details", () => {
    const upstream = new GatewayError("upstream_error", { message: "The provider failed.", retryable: true, details: { provider: "openai-main" } });
    expect(upstream.retryable).toBe(true);
    const rendered = JSON.stringify([renderGatewayErrorBody(upstream, "req_1"), renderAnthropicErrorBody(upstream, "req_1"), renderDashboardErrorBody(upstream)]);
    expect(rendered).not.toContain("retryable");
    expect(renderGatewayErrorBody(upstream).error.details).toEqual({ provider: "openai-main" });
  });

  it("renders the Anthropic body with Anthropic's type names per status", () => {
    expect(renderAnthropicErrorBody(error, "req_abc")).toEqual({
      type: "error",
      error: { type: "not_found_error", message: "No such model." },
      request_id: "req_abc",
    });
    expect(renderAnthropicErrorBody(new GatewayError("invalid_gateway_api_key")).error.type).toBe("authentication_error");
    expect(renderAnthropicErrorBody(new GatewayError("request_too_large")).error.type).toBe("request_too_large");
    expect(renderAnthropicErrorBody(new GatewayError("gateway_rate_limit_exceeded")).error.type).toBe("rate_limit_error");
    expect(renderAnthropicErrorBody(new GatewayError("internal_error")).error.type).toBe("api_error");
    expect(renderAnthropicErrorBody(new GatewayError("upstream_timeout")).error.type).toBe("timeout_error");
    expect(renderAnthropicErrorBody(new GatewayError("service_unavailable")).error.type).toBe("overloaded_error");
    expect(renderAnthropicErrorBody(new GatewayError("permission_denied")).error.type).toBe("permission_error");
  });

  it("renders the dashboard body with details always an object", () => {
    expect(renderDashboardErrorBody(new GatewayError("not_found"))).toEqual({
      error: { code: "not_found", message: "Not found.", details: {} },
    });
    expect(renderDashboardErrorBody(error).error.details).toEqual({ param: "model" });
  });

  it("sends Retry-After as whole seconds of at least 1, or a provider's value as given", () => {
    expect(errorResponseHeaders(new GatewayError("gateway_rate_limit_exceeded", { retryAfter: 0.2 }))).toEqual({ "retry-after": "1" });
    expect(errorResponseHeaders(new GatewayError("gateway_rate_limit_exceeded", { retryAfter: 12.1 }))).toEqual({ "retry-after": "13" });
    const date = "Wed, 21 Oct 2026 07:28:00 GMT";
    expect(errorResponseHeaders(new GatewayError("upstream_rate_limited", { retryAfter: date }))).toEqual({ "retry-after": date });
    expect(errorResponseHeaders(new GatewayError("internal_error"))).toEqual({});
  });
});

describe("ProviderPassthroughError", () => {
  it("keeps the provider's own status and payload", () => {
    const error = new ProviderPassthroughError({ status: 451, payload: { error: { reason: "legal" } } });
    expect(error.status).toBe(451);
    expect(error.payload).toEqual({ error: { reason: "legal" } });
    expect(ProviderPassthroughError.isInstance(error)).toBe(true);
    expect(ProviderPassthroughError.isInstance(new GatewayError("upstream_error"))).toBe(false);
    expect(GatewayError.isInstance(error)).toBe(true);
  });
});
