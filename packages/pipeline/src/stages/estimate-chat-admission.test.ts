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
    expect(estimateChatAdmission({ snapshot, identity, plan, body })).toEqual({ estimatedCostMicros: 0, estimatedTokens: 0 });
  });

  it("reserves one token per UTF-8 byte of text and the request's max_tokens; token limits count characters / 4", () => {
    const { snapshot, identity, plan } = setup({
      budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "organization", scopeId: "org_1", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
      rateLimits: [{ id: "r1", organizationId: "org_1", scope: "project", scopeId: "prj_1", windowSeconds: 60, requestsPerWindow: null, tokensPerWindow: 10_000, concurrency: null }],
    });
    const estimate = estimateChatAdmission({ snapshot, identity, plan, body });
    // Text: 16 framing + the keys and strings (5 + 14 + 8 + 4 + 4 + 7 + 396 + 10) + 1 number = 465 tokens at $1/M,
    // plus 100 output tokens at $2/M.
    expect(estimate).toEqual({ estimatedCostMicros: 465 + 200, estimatedTokens: Math.ceil(465 / 4) + 100 });
  });

  it("counts CJK and emoji at their UTF-8 bytes (a token never covers less than a byte)", () => {
    const { snapshot, identity, plan } = setup({
      budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "organization", scopeId: "org_1", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
    });
    const ascii = estimateChatAdmission({ snapshot, identity, plan, body: { ...body, messages: [{ role: "user", content: "a".repeat(100) }] } });
    const cjk = estimateChatAdmission({ snapshot, identity, plan, body: { ...body, messages: [{ role: "user", content: "漢".repeat(100) }] } });
    const emoji = estimateChatAdmission({ snapshot, identity, plan, body: { ...body, messages: [{ role: "user", content: "🙂".repeat(100) }] } });
    expect(cjk.estimatedCostMicros - ascii.estimatedCostMicros).toBe(200);
    expect(emoji.estimatedCostMicros - ascii.estimatedCostMicros).toBe(300);
  });

  it("counts an image by its provider's rule, at the model's maximum when its size is unknown", () => {
    const { snapshot, identity, plan } = setup({
      budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "organization", scopeId: "org_1", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
    });
    const gpt4o = { ...plan, targets: [{ ...plan.targets[0]!, connection: { ...plan.targets[0]!.connection, kind: "openai", prices: { "openai/gpt-4o": { input: 1, output: 0 } } }, upstreamModel: "gpt-4o", qualifiedModel: "demo/openai/gpt-4o" }] } as unknown as RoutePlan;
    const withImage = (url: string, detail?: string) => ({
      model: "demo/openai/gpt-4o",
      max_tokens: 1,
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url, ...(detail === undefined ? {} : { detail }) } }] }],
    });
    const png = (width: number, height: number) => {
      const header = Buffer.alloc(33);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
      header.writeUInt32BE(13, 8);
      header.write("IHDR", 12, "ascii");
      header.writeUInt32BE(width, 16);
      header.writeUInt32BE(height, 20);
      return `data:image/png;base64,${header.toString("base64")}${"A".repeat(100_000)}`;
    };
    const cost = (request: Record<string, unknown>) => estimateChatAdmission({ snapshot, identity, plan: gpt4o, body: request }).estimatedCostMicros;
    const frame = cost({ model: "demo/openai/gpt-4o", max_tokens: 1, messages: [{ role: "user", content: [] }] });
    // The 100 kB payload is not text: only the image's tokens (and 16 for its part) are added.
    expect(cost(withImage(png(1024, 1024))) - frame).toBeLessThan(765 + 200);
    expect(cost(withImage(png(1024, 1024))) - frame).toBeGreaterThanOrEqual(765);
    // The part is counted by its rule alone (its keys and `detail` are not text).
    expect(cost(withImage(png(1024, 1024), "low")) - cost(withImage(png(1024, 1024)))).toBe(85 - 765);
    expect(cost(withImage("http://127.0.0.1:9/cat.png")) - frame).toBeGreaterThanOrEqual(85 + 170 * 8);
  });

  it("multiplies the output bound by n and refuses a request without any output bound under a hard budget", () => {
    const { snapshot, identity, plan } = setup({
      budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "organization", scopeId: "org_1", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
    });
    const one = estimateChatAdmission({ snapshot, identity, plan, body: { ...body, n: 1 } }).estimatedCostMicros;
    const three = estimateChatAdmission({ snapshot, identity, plan, body: { ...body, n: 3 } }).estimatedCostMicros;
    expect(three - one).toBe(2 * 100 * 2);
    const uncapped = { model: body.model, messages: body.messages };
    expect(() => estimateChatAdmission({ snapshot, identity, plan, body: uncapped })).toThrow(
      expect.objectContaining({ code: "hard_budget_unbounded_request", status: 424, details: { budget_id: "b1", scope: "organization" } }),
    );
    // A model with a maximum output in its price is bounded by it.
    const capped = { ...plan, targets: [{ ...plan.targets[0]!, connection: { ...plan.targets[0]!.connection, prices: { "demo/chat": { input: 1, output: 2, maxOutputTokens: 50 } } } }] } as unknown as RoutePlan;
    expect(estimateChatAdmission({ snapshot, identity, plan: capped, body: uncapped }).estimatedCostMicros).toBeGreaterThan(100);
  });

  it("bounds a file part by the context window, refuses it without one, and refuses tools the provider runs itself", () => {
    const { snapshot, identity, plan } = setup({
      budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "project", scopeId: "prj_1", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
    });
    const withFile = { ...body, messages: [{ role: "user", content: [{ type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0x", filename: "a.pdf" } }] }] };
    expect(() => estimateChatAdmission({ snapshot, identity, plan, body: withFile })).toThrow(expect.objectContaining({ code: "hard_budget_unbounded_request" }));
    const windowed = { ...plan, targets: [{ ...plan.targets[0]!, connection: { ...plan.targets[0]!.connection, prices: { "demo/chat": { input: 1, output: 2, contextWindow: 8000 } } } }] } as unknown as RoutePlan;
    expect(estimateChatAdmission({ snapshot, identity, plan: windowed, body: withFile }).estimatedCostMicros).toBe(8000 + 100 * 2);
    const searching = { ...body, tools: [{ type: "web_search_20250305", name: "web_search" }] };
    expect(() => estimateChatAdmission({ snapshot, identity, plan, body: searching })).toThrow(expect.objectContaining({ code: "hard_budget_unbounded_request" }));
  });

  it("does not refuse an unbounded request when no hard budget applies to the caller", () => {
    const { snapshot, identity, plan } = setup({
      budgets: [{ id: "b1", organizationId: "org_1", name: "cap", scope: "project", scopeId: "prj_other", amountMicros: 1_000_000, period: "month", mode: "hard", thresholds: [] }],
    });
    expect(estimateChatAdmission({ snapshot, identity, plan, body: { model: body.model, messages: body.messages } }).estimatedCostMicros).toBe(0);
  });

  it("reads only the format's own cap fields: a messages body is capped by max_tokens alone", () => {
    const { snapshot, identity, plan } = setup({
      rateLimits: [{ id: "r1", organizationId: "org_1", scope: "project", scopeId: "prj_1", windowSeconds: 60, requestsPerWindow: null, tokensPerWindow: 10_000, concurrency: null }],
    });
    const messagesBody = { ...body, max_completion_tokens: 1e300 };
    // 465 text tokens of the plain body + "max_completion_tokens" (21) and its number (1); output capped at max_tokens = 100.
    expect(estimateChatAdmission({ snapshot, identity, plan, body: messagesBody, format: "anthropic" }).estimatedTokens).toBe(Math.ceil((465 + 22) / 4) + 100);
  });
});
