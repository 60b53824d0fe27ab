import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { createRequestContext } from "./request-context.js";

const base = { requestId: "req_test", endpoint: "decisions" as const, timeoutMs: 1000, startedAt: 5000 };

describe("createRequestContext", () => {
  it("records the caller's X-Request-ID up to 255 characters", () => {
    const traceId = "t".repeat(255);
    const context = createRequestContext({ ...base, headers: { "x-request-id": traceId } });
    expect(context.traceId).toBe(traceId);
    expect(context.requestId).toBe("req_test");
  });

  it("rejects an X-Request-ID over 255 characters with 400 naming the header", () => {
    let caught: unknown;
    try {
      createRequestContext({ ...base, headers: { "x-request-id": "t".repeat(256) } });
    } catch (error) {
      caught = error;
    }
    expect(GatewayError.isInstance(caught)).toBe(true);
    expect((caught as GatewayError).status).toBe(400);
    expect((caught as GatewayError).code).toBe("invalid_request");
    expect((caught as GatewayError).param).toBe("X-Request-ID");
  });

  it("keeps a valid X-Gateway-Session-ID and ignores an invalid one", () => {
    expect(createRequestContext({ ...base, headers: { "x-gateway-session-id": "conv:42.a_b-c" } }).sessionId).toBe(
      "conv:42.a_b-c",
    );
    expect(createRequestContext({ ...base, headers: { "x-gateway-session-id": "has space" } }).sessionId).toBeNull();
    expect(createRequestContext({ ...base, headers: { "x-gateway-session-id": "x".repeat(129) } }).sessionId).toBeNull();
  });

  it("keeps the raw X-Gateway-Session for the route stage, X-Provider, and the deadline", () => {
    const context = createRequestContext({
      ...base,
      headers: { "x-gateway-session": "not valid!", "x-provider": "openai-main" },
    });
    expect(context.affinitySession).toBe("not valid!");
    expect(context.providerHint).toBe("openai-main");
    expect(context.deadline).toBe(6000);
  });

  it("derives the client label from headers", () => {
    const context = createRequestContext({
      ...base,
      headers: { "x-gateway-client": "ci-runner/3", "user-agent": "OpenAI/JS 6.1.0" },
    });
    expect(context.clientLabel).toBe("ci-runner/3");
  });
});
