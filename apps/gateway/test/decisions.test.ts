import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { createGatewayTestSnapshot, otherProjectApiKey, testApiKey } from "./support/create-gateway-test-snapshot.js";
import {
  type MockProvider,
  anthropicToolUseHandler,
  openAiChatHandler,
  startMockProvider,
  systemOneHandler,
} from "./support/mock-provider.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";

let openai: MockProvider;
let anthropic: MockProvider;
let native: MockProvider;
let gateway: TestGateway;
let baseSnapshot: ControlPlaneSnapshot;

/** OpenAI answer for a 3-option question: label variants " A" and "a" merge into "A". */
const knownLogprobs = [
  { token: "A", logprob: Math.log(0.5) },
  { token: "B", logprob: Math.log(0.25) },
  { token: " A", logprob: Math.log(0.1) },
  { token: "C", logprob: Math.log(0.05) },
  { token: "a", logprob: Math.log(0.04) },
  { token: "Sure", logprob: Math.log(0.06) },
];

beforeAll(async () => {
  openai = await startMockProvider(openAiChatHandler(() => knownLogprobs));
  anthropic = await startMockProvider(anthropicToolUseHandler([0.3, 0.7]));
  native = await startMockProvider(systemOneHandler());
  baseSnapshot = createGatewayTestSnapshot(
    { openai: openai.baseUrl, anthropic: anthropic.baseUrl, systemone: native.baseUrl },
    {
      routes: [
        {
          id: "route_sticky",
          organizationId: "org_1",
          alias: "sticky",
          strategy: "priority",
          targets: [{ model: "native/systemone/s1", weight: 1 }],
          affinity: { enabled: true, ttlSeconds: 60 },
          retry: { maxAttempts: 1 },
        },
        {
          id: "route_plain",
          organizationId: "org_1",
          alias: "plain",
          strategy: "priority",
          targets: [{ model: "native/systemone/s1", weight: 1 }],
          affinity: { enabled: false, ttlSeconds: 60 },
          retry: { maxAttempts: 1 },
        },
        {
          id: "route_resilient",
          organizationId: "org_1",
          alias: "resilient",
          strategy: "priority",
          targets: [
            { model: "openai-mock/openai/gpt-4o-mini", weight: 1 },
            { model: "demo/demo/decider", weight: 1 },
          ],
          affinity: { enabled: false, ttlSeconds: 60 },
          retry: { maxAttempts: 2 },
        },
      ],
    },
  );
  gateway = await startTestGateway(baseSnapshot);
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openai?.close(), anthropic?.close(), native?.close()]);
});

beforeEach(async () => {
  openai.override(null);
  anthropic.override(null);
  native.override(null);
  openai.requests.length = 0;
  anthropic.requests.length = 0;
  native.requests.length = 0;
  if (gateway) await gateway.setSnapshot({ ...baseSnapshot, version: `v${Math.random()}` });
});

describe("POST /v1/systemone: providers", () => {
  it("answers with the offline demo provider, labelled as demo", async () => {
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("demo/demo/decider") });
    expect(response.status).toBe(200);
    expect(response.requestId).toMatch(/^req_/);
    expect(response.headers.get("x-gateway-demo")).toBe("true");
    expect(response.body.demo).toBe(true);
    expect(Object.keys(response.body.answers)).toEqual(["escalate"]);
    expect(response.body.answers.escalate.type).toBe("noul");
  });

  it("sends native providers the request as sent (extra properties kept) without gateway headers", async () => {
    const body = {
      ...decisionBody("native/systemone/s1"),
      trace_tags: ["a", "b"],
      questions: {
        tier: { type: "choice", instructions: "Which tier?", criteria: { gold: "top", silver: null }, x_weight: 3 },
      },
    };
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body,
      headers: {
        "X-Request-ID": "trace-123",
        "X-Gateway-Client": "eval-suite/1.2.0",
        "X-Gateway-Session": "session-1",
        "X-Gateway-Session-ID": "conversation-9",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.answers.tier).toEqual({ type: "choice", choice: "gold" });
    expect(native.requests).toHaveLength(1);
    const upstream = native.requests[0]!;
    expect(upstream.body).toEqual({ ...body, model: "s1" });
    expect(upstream.headers.authorization).toBe("Bearer so-upstream-secret");
    for (const header of ["x-gateway-client", "x-gateway-session", "x-gateway-session-id", "x-provider", "x-request-id"]) {
      if (header === "x-request-id") expect(upstream.headers[header]).not.toBe("trace-123");
      else expect(upstream.headers[header]).toBeUndefined();
    }
  });

  it("passes a native provider's own error status and payload through", async () => {
    native.override(() => ({ status: 418, body: { detail: "rubric rejected", code: "SO-17" } }));
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
    expect(response.status).toBe(418);
    expect(response.body).toEqual({ detail: "rubric rejected", code: "SO-17" });
    expect(response.requestId).toMatch(/^req_/);
  });

  it("translates for OpenAI-compatible providers with logprobs, merging label variants (1e-9)", async () => {
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: {
        model: "openai-mock/openai/gpt-4o-mini",
        state: "ticket text",
        questions: { route: { type: "choice", instructions: "Which team?", criteria: { billing: null, tech: null, sales: null } } },
      },
    });
    expect(response.status).toBe(200);
    const total = 0.5 + 0.1 + 0.04 + 0.25 + 0.05;
    const answer = response.body.answers.route;
    expect(answer.choice).toBe("billing");
    expect(answer.probabilities.billing).toBeCloseTo((0.5 + 0.1 + 0.04) / total, 9);
    expect(answer.probabilities.tech).toBeCloseTo(0.25 / total, 9);
    expect(answer.probabilities.sales).toBeCloseTo(0.05 / total, 9);
    const upstream = openai.requests[0]!;
    expect(upstream.path).toBe("/v1/chat/completions");
    expect(upstream.headers.authorization).toBe("Bearer sk-upstream-secret-openai");
    expect(upstream.body).toMatchObject({ model: "gpt-4o-mini", logprobs: true, top_logprobs: 20, temperature: 0 });
  });

  it("groups more than 20 options (OpenAI caps top_logprobs at 20) and still gives every option a probability", async () => {
    openai.override(openAiChatHandler(() => [
      { token: "A", logprob: Math.log(0.6) },
      { token: "B", logprob: Math.log(0.4) },
    ]));
    const criteria = Object.fromEntries(Array.from({ length: 255 }, (_, index) => [`option${String(index).padStart(3, "0")}`, null]));
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: { model: "openai-mock/openai/gpt-4o-mini", state: "x", questions: { pick: { type: "choice", instructions: "Pick one", criteria } } },
    });
    expect(response.status).toBe(200);
    const probabilities = response.body.answers.pick.probabilities as Record<string, number>;
    expect(Object.keys(probabilities).sort()).toEqual(Object.keys(criteria));
    expect(Object.values(probabilities).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 9);
    expect(response.body.answers.pick.choice).toBe("option000");
    expect(openai.requests.length).toBeGreaterThan(1);
    for (const upstream of openai.requests) expect((upstream.body as { top_logprobs: number }).top_logprobs).toBeLessThanOrEqual(20);
  });

  it("answers a refused question with a refusal under its key, and the other questions normally", async () => {
    openai.override((request) => {
      const answer = openAiChatHandler(() => knownLogprobs)(request);
      const prompt = JSON.stringify((request.body as { messages: unknown }).messages);
      if (!prompt.includes("forbidden topic")) return answer;
      const body = answer.body as { choices: { message: Record<string, unknown>; logprobs: unknown }[] };
      body.choices[0]!.message = { role: "assistant", content: null, refusal: "I can't help with that." };
      body.choices[0]!.logprobs = null;
      return answer;
    });
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: {
        model: "openai-mock/openai/gpt-4o-mini",
        state: "ticket",
        questions: {
          refused: { type: "choice", instructions: "About the forbidden topic?", criteria: { yes: null, no: null } },
          fine: { type: "choice", instructions: "Which team?", criteria: { billing: null, tech: null, sales: null } },
        },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.answers.refused.type).toBe("refusal");
    expect(response.body.answers.fine.choice).toBe("billing");
  });

  it("translates for Anthropic providers with a forced tool call (stated probabilities)", async () => {
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: {
        model: "anthropic-mock/anthropic/claude-sonnet-4",
        state: "ticket text",
        questions: { urgent: { type: "choice", instructions: "How urgent?", criteria: { low: null, high: null } } },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.answers.urgent.choice).toBe("high");
    expect(response.body.answers.urgent.probabilities.high).toBeCloseTo(0.7, 9);
    const upstream = anthropic.requests[0]!;
    expect(upstream.path).toBe("/v1/messages");
    expect(upstream.headers["x-api-key"]).toBe("sk-ant-upstream-secret");
    expect(upstream.body).toMatchObject({ model: "claude-sonnet-4-20250514", tool_choice: { type: "tool" } });
  });

  it("falls back to the next route target when the first fails with a retryable error", async () => {
    openai.override(() => ({ status: 500, body: { error: { message: "overloaded" } } }));
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("resilient") });
    expect(response.status).toBe(200);
    expect(response.body.demo).toBe(true);
    expect(openai.requests).toHaveLength(2);
    const event = await gateway.eventFor(response.requestId);
    expect(event).toMatchObject({ routeId: "route_resilient", provider: "demo", status: 200 });
  });
});

describe("POST /v1/systemone: model selection", () => {
  it("X-Provider selects the connection for an unqualified model", async () => {
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("systemone/s1"),
      headers: { "X-Provider": "native" },
    });
    expect(response.status).toBe(200);
    expect(native.requests).toHaveLength(1);
  });

  it("a provider-qualified model wins over X-Provider", async () => {
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("demo/demo/decider"),
      headers: { "X-Provider": "native" },
    });
    expect(response.status).toBe(200);
    expect(response.body.demo).toBe(true);
    expect(native.requests).toHaveLength(0);
  });

  it.each([
    ["an unknown alias", "no-such-alias", {}],
    ["an unknown provider", "nobody/openai/gpt-4o-mini", {}],
    ["a model the connection does not serve", "native/systemone/s9", {}],
    ["an unknown X-Provider", "systemone/s1", { "X-Provider": "nobody" }],
  ])("answers 404 for %s", async (_name, model, headers) => {
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody(model), headers });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("model_not_found");
    expect(response.requestId).toMatch(/^req_/);
  });

  it("answers 403 when a policy denies the model to the key's project", async () => {
    await gateway.setSnapshot({
      ...baseSnapshot,
      version: "deny",
      policies: [
        { id: "pol_1", organizationId: "org_1", scope: "project", scopeId: "prj_other", allow: [], deny: ["native/**"], guardrails: null },
      ],
    });
    const denied = await postDecision(gateway.url, { apiKey: otherProjectApiKey, body: decisionBody("native/systemone/s1") });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("model_not_allowed");
    const allowed = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
    expect(allowed.status).toBe(200);
  });

  it("answers 403 guardrail_blocked without echoing the match, before calling the provider", async () => {
    await gateway.setSnapshot({
      ...baseSnapshot,
      version: "guardrails",
      policies: [
        {
          id: "pol_guard",
          organizationId: "org_1",
          scope: "organization",
          scopeId: "org_1",
          allow: [],
          deny: [],
          guardrails: { rules: [{ type: "blocked_terms", name: "no-codenames", action: "block", terms: ["bluebird"] }] },
        },
      ],
    });
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("native/systemone/s1", { state: "Project bluebird launches soon" }),
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("guardrail_blocked");
    expect(JSON.stringify(response.body)).not.toContain("bluebird");
    expect(native.requests).toHaveLength(0);
  });
});

describe("POST /v1/systemone: request errors", () => {
  it.each([
    ["stream: true", { stream: true }, "stream"],
    ["max_tokens present (even null)", { max_tokens: null }, "max_tokens"],
    ["max_completion_tokens present", { max_completion_tokens: 5 }, "max_completion_tokens"],
    ["no questions", { questions: {} }, "questions"],
    ["a numeric state", { state: 42 }, "state"],
  ])("answers 400 invalid_request for %s", async (_name, extra, param) => {
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("demo/demo/decider", extra) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("invalid_request");
    expect(String(response.body.error.param)).toContain(param);
    expect(response.body.request_id).toBe(response.requestId);
  });

  it("answers 400 unsupported_feature naming an extension a translated provider cannot represent", async () => {
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("openai-mock/openai/gpt-4o-mini", { reasoning_effort: "high" }),
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("unsupported_feature");
    expect(response.body.error.param).toBe("reasoning_effort");
    expect(openai.requests).toHaveLength(0);
  });

  it("answers 400 unsupported_feature for an object rubric on a translated provider", async () => {
    const response = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: {
        model: "openai-mock/openai/gpt-4o-mini",
        state: "x",
        questions: { quality: { type: "score", instructions: "Rate", criteria: { "1": "bad", "5": "good" } } },
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("unsupported_feature");
  });

  it("answers 400 for an invalid X-Gateway-Session only when the route has affinity on", async () => {
    const sticky = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("sticky"),
      headers: { "X-Gateway-Session": "not valid!" },
    });
    expect(sticky.status).toBe(400);
    expect(sticky.body.error.param).toBe("X-Gateway-Session");
    const plain = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("plain"),
      headers: { "X-Gateway-Session": "not valid!" },
    });
    expect(plain.status).toBe(200);
    const valid = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("sticky"),
      headers: { "X-Gateway-Session": "user-42:conv.7" },
    });
    expect(valid.status).toBe(200);
  });

  it("answers 400 for an X-Request-ID over 255 characters and records one of 255", async () => {
    const tooLong = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("demo/demo/decider"),
      headers: { "X-Request-ID": "r".repeat(256) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.param).toBe("X-Request-ID");
    expect(tooLong.requestId).toMatch(/^req_/);
    const traceId = "t".repeat(255);
    const ok = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("demo/demo/decider"),
      headers: { "X-Request-ID": traceId },
    });
    expect(ok.status).toBe(200);
    expect(ok.requestId).not.toBe(traceId);
    expect((await gateway.eventFor(ok.requestId)).traceId).toBe(traceId);
  });

  it("answers 415 for a non-JSON content type and 400 for a body that is not JSON", async () => {
    const wrongType = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: "model=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe("unsupported_media_type");
    const broken = await postDecision(gateway.url, { apiKey: testApiKey, body: "{not json" });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe("invalid_request");
  });
});

describe("POST /v1/systemone: authentication", () => {
  it.each([
    ["missing", null],
    ["malformed", "sk-not-a-gateway-key"],
    ["unknown", "gak_unknown_key_0123456789abcdef"],
  ])("answers 401 invalid_gateway_api_key for a %s key", async (_name, apiKey) => {
    const response = await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decider") });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("invalid_gateway_api_key");
    expect(response.requestId).toMatch(/^req_/);
  });

  it("answers 401 for an expired key and for a revoked key", async () => {
    await gateway.setSnapshot({
      ...baseSnapshot,
      version: "expired",
      apiKeys: baseSnapshot.apiKeys.map((key) => (key.id === "key_main" ? { ...key, expiresAt: new Date(Date.now() - 1000) } : key)),
    });
    expect((await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("demo/demo/decider") })).status).toBe(401);
    await gateway.setSnapshot({ ...baseSnapshot, version: "revoked", apiKeys: baseSnapshot.apiKeys.filter((key) => key.id !== "key_main") });
    const revoked = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("demo/demo/decider") });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe("invalid_gateway_api_key");
  });
});

describe("POST /v1/systemone: admission", () => {
  it("answers 424 hard_budget_decision_unbounded under a hard budget, and records the rejection", async () => {
    await gateway.setSnapshot({
      ...baseSnapshot,
      version: "hard-budget",
      budgets: [
        {
          id: "bud_hard",
          organizationId: "org_1",
          name: "project cap",
          scope: "project",
          scopeId: "prj_main",
          amountMicros: 5_000_000,
          period: "month",
          mode: "hard",
          thresholds: [],
        },
      ],
    });
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
    expect(response.status).toBe(424);
    expect(response.body.error.code).toBe("hard_budget_decision_unbounded");
    expect(native.requests).toHaveLength(0);
    expect((await gateway.eventFor(response.requestId)).budgetOutcome).toBe("rejected:bud_hard");
    const otherProject = await postDecision(gateway.url, { apiKey: otherProjectApiKey, body: decisionBody("native/systemone/s1") });
    expect(otherProject.status).toBe(200);
  });

  it("answers 429 gateway_rate_limit_exceeded with Retry-After in whole seconds", async () => {
    await gateway.setSnapshot({
      ...baseSnapshot,
      version: "rate-limit",
      rateLimits: [
        {
          id: "rl_1",
          organizationId: "org_1",
          scope: "key",
          scopeId: "key_other",
          windowSeconds: 60,
          requestsPerWindow: 1,
          tokensPerWindow: null,
          concurrency: null,
        },
      ],
    });
    const first = await postDecision(gateway.url, { apiKey: otherProjectApiKey, body: decisionBody("demo/demo/decider") });
    expect(first.status).toBe(200);
    const second = await postDecision(gateway.url, { apiKey: otherProjectApiKey, body: decisionBody("demo/demo/decider") });
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe("gateway_rate_limit_exceeded");
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("POST /v1/systemone: upstream failures", () => {
  it("passes an upstream 429's Retry-After through as given (HTTP date)", async () => {
    const retryAt = "Wed, 21 Oct 2026 07:28:00 GMT";
    openai.override(() => ({ status: 429, headers: { "retry-after": retryAt }, body: { error: { message: "slow down", type: "rate_limit" } } }));
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("openai-mock/openai/gpt-4o-mini") });
    expect(response.status).toBe(429);
    expect(response.body.error.code).toBe("upstream_rate_limited");
    expect(response.headers.get("retry-after")).toBe(retryAt);
  });

  it("answers 502 for an upstream 5xx without its body, and for a malformed provider answer", async () => {
    openai.override(() => ({ status: 500, body: { error: { message: "stack trace at db.internal:5432" } } }));
    const failed = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("openai-mock/openai/gpt-4o-mini") });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("upstream_error");
    expect(JSON.stringify(failed.body)).not.toContain("db.internal");

    native.override(() => ({ body: { answers: { someone_else: { type: "noul", noul: 0.5 } } } }));
    const malformed = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
    expect(malformed.status).toBe(502);
    expect(malformed.body.error.code).toBe("upstream_error");
  });

  it("answers 503 when the provider cannot be reached", async () => {
    const closed = await startMockProvider(systemOneHandler());
    await closed.close();
    await gateway.setSnapshot({
      ...baseSnapshot,
      version: "unreachable",
      connections: baseSnapshot.connections.map((connection) =>
        connection.name === "native" ? { ...connection, baseUrl: closed.baseUrl } : connection,
      ),
    });
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("service_unavailable");
  });

  it("answers 500 without internals when a policy's guardrails configuration is broken", async () => {
    await gateway.setSnapshot({
      ...baseSnapshot,
      version: "broken",
      policies: [
        {
          id: "pol_broken_secret_name",
          organizationId: "org_1",
          scope: "organization",
          scopeId: "org_1",
          allow: [],
          deny: [],
          guardrails: { rules: [{ type: "nonsense" }] },
        },
      ],
    });
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
    expect(response.status).toBe(500);
    expect(response.requestId).toMatch(/^req_/);
    expect(JSON.stringify(response.body)).not.toContain("pol_broken_secret_name");
    expect(response.body.error.code).toBe("internal_error");
  });
});

describe("usage events", () => {
  it("records successes and errors with caller, client label and session id, and never decision content", async () => {
    const ok = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("native/systemone/s1", { state: "very private state text" }),
      headers: { "X-Gateway-Client": "eval-suite/1.2.0", "X-Gateway-Session-ID": "conv-1", "X-Request-ID": "trace-ok" },
    });
    const event = await gateway.eventFor(ok.requestId);
    expect(event).toMatchObject({
      requestId: ok.requestId,
      traceId: "trace-ok",
      organizationId: "org_1",
      projectId: "prj_main",
      apiKeyId: "key_main",
      endpoint: "decisions",
      requestedModel: "native/systemone/s1",
      provider: "native",
      model: "systemone/s1",
      status: 200,
      errorCode: null,
      inputTokens: 30,
      outputTokens: 3,
      clientLabel: "eval-suite/1.2.0",
      sessionId: "conv-1",
      content: null,
    });
    expect(JSON.stringify(event)).not.toContain("very private state text");

    const invalidHeaders = await postDecision(gateway.url, {
      apiKey: testApiKey,
      body: decisionBody("demo/demo/decider"),
      headers: { "X-Gateway-Client": "-bad label", "X-Gateway-Session-ID": "bad id!", "user-agent": "OpenAI/JS 6.1.0" },
    });
    expect(await gateway.eventFor(invalidHeaders.requestId)).toMatchObject({ clientLabel: "openai-node/6.1.0", sessionId: null });

    const failed = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("no-such-alias") });
    expect(await gateway.eventFor(failed.requestId)).toMatchObject({
      status: 404,
      errorCode: "model_not_found",
      apiKeyId: "key_main",
      content: null,
    });
    const unauthenticated = await postDecision(gateway.url, { apiKey: null, body: decisionBody("demo/demo/decider") });
    expect(await gateway.eventFor(unauthenticated.requestId)).toMatchObject({ status: 401, apiKeyId: null });
  });
});

describe("every response carries x-request-id", () => {
  it("on unknown routes (404 in the gateway body) and wrong methods", async () => {
    const response = await fetch(`${gateway.url}/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
    const wrongMethod = await fetch(`${gateway.url}/v1/systemone`);
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
