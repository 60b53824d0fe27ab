import { describe, expect, it } from "vitest";
import { createTestSnapshot } from "../__fixtures__/create-test-snapshot.js";
import { identityForApiKeyId } from "./authenticate.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import { estimateChatAdmission } from "./estimate-chat-admission.js";
import type { RoutePlan } from "./resolve-route.js";

function setup(extra: Parameters<typeof createTestSnapshot>[0] = {}) {
  const snapshot = compileSnapshot(createTestSnapshot(extra));
  const identity = identityForApiKeyId("key_1", snapshot);
  const connection = { ...snapshot.snapshot.connections[0]!, prices: { "demo/chat": { input: 1, output: 2 } } };
  const plan: RoutePlan = {
    requestedModel: "demo/demo/chat",
    route: null,
    targets: [{ connection, upstreamModel: "demo/chat", qualifiedModel: "demo/demo/chat" }],
    maxAttemptsPerTarget: 1,
    affinityKey: null,
  };
  return { snapshot, identity, plan };
}

const body = { model: "demo/demo/chat", messages: [{ role: "user", content: "x".repeat(396) }], max_tokens: 100 };

describe("estimateChatAdmission", () => {
  it("computes nothing when the organization has neither hard budgets nor token limits", () => {
    const { snapshot, identity, plan } = setup();
    expect(estimateChatAdmission({ snapshot, identity, plan, body, bodyBytes: 400 })).toEqual({ estimatedCostMicros: 0, estimatedTokens: 0 });
  });

  it("bounds cost and tokens by characters / 4 and the request's max_tokens", () => {
    const { snapshot, identity, plan } = setup({
      budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "organization", scopeId: "org_1", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
      rateLimits: [{ id: "r1", organizationId: "org_1", scope: "project", scopeId: "prj_1", windowSeconds: 60, requestsPerWindow: null, tokensPerWindow: 10_000, concurrency: null }],
    });
    const estimate = estimateChatAdmission({ snapshot, identity, plan, body, bodyBytes: 400 });
    // 100 input tokens at $1/M + 100 output tokens at $2/M = 300 micro-USD.
    expect(estimate).toEqual({ estimatedCostMicros: 300, estimatedTokens: 200 });
  });

  it("reads only the format's own cap fields: a messages body is capped by max_tokens alone", () => {
    const { snapshot, identity, plan } = setup({
      rateLimits: [{ id: "r1", organizationId: "org_1", scope: "project", scopeId: "prj_1", windowSeconds: 60, requestsPerWindow: null, tokensPerWindow: 10_000, concurrency: null }],
    });
    const messagesBody = { ...body, max_completion_tokens: 1e300 };
    expect(estimateChatAdmission({ snapshot, identity, plan, body: messagesBody, bodyBytes: 400, format: "anthropic" }).estimatedTokens).toBe(200);
  });
});
