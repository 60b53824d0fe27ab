import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, openAiHandler, sendJson, startWireProvider } from "./support/wire-format-providers.js";

const openAiModel = "openai-mock/openai/gpt-4o-mini";
const anthropicModel = "anthropic-mock/anthropic/claude-sonnet-4";

/** What the usage event of a call records about its caller and its attempts (issue 27: activity). */
let openaiUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  const base = createGatewayTestSnapshot({ openai: openaiUpstream.url, anthropic: anthropicUpstream.url });
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    apiKeys: base.apiKeys.map((key) => (key.id === "key_main" ? { ...key, teamId: "team_search", defaultMetadata: { team: "search", env: "dev" } } : key)),
    routes: [
      {
        id: "route_two",
        organizationId: "org_1",
        alias: "two-targets",
        strategy: "priority",
        targets: [{ model: openAiModel, weight: 1 }, { model: anthropicModel, weight: 1 }],
        affinity: { enabled: false, ttlSeconds: 60 },
        retry: { maxAttempts: 2 },
      },
    ],
  };
  gateway = await startTestGateway(snapshot);
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close()]);
});

beforeEach(() => {
  openaiUpstream.use(null);
  anthropicUpstream.use(null);
  openaiUpstream.requests.length = 0;
  anthropicUpstream.requests.length = 0;
});

const chat = (model: string, headers: Record<string, string> = {}) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi" }] }),
  });

describe("X-Gateway-Metadata", () => {
  it("is recorded merged over the key's default metadata, and never reaches the provider", async () => {
    const response = await chat(openAiModel, { "x-gateway-metadata": '{"env":"prod","run":"run-7f3a9c"}', "x-gateway-client": "nightly-eval/3.1.0" });
    expect(response.status).toBe(200);
    const event = await gateway.eventFor(response.headers.get("x-request-id")!);
    expect(event.metadata).toEqual({ team: "search", env: "prod", run: "run-7f3a9c" });
    expect(event).toMatchObject({ teamId: "team_search", clientLabel: "nightly-eval/3.1.0", clientVersion: "3.1.0", connectionId: "con_openai", attempts: [{ outcome: "served", status: 200 }] });
    expect(openaiUpstream.requests).toHaveLength(1);
    const forwarded = Object.keys(openaiUpstream.requests[0]!.headers);
    expect(forwarded.filter((name) => name.startsWith("x-gateway"))).toEqual([]);
    expect(JSON.stringify(openaiUpstream.requests[0]!.headers)).not.toContain("run-7f3a9c");
  });

  it("records the key's defaults alone when the caller sends none", async () => {
    const response = await chat(openAiModel);
    expect((await gateway.eventFor(response.headers.get("x-request-id")!)).metadata).toEqual({ team: "search", env: "dev" });
  });

  it("refuses an invalid header with 400 invalid_request_error naming it, before any provider call", async () => {
    const response = await chat(openAiModel, { "x-gateway-metadata": '{"tier":3}' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { type: string; param: string; message: string } };
    expect(body.error).toMatchObject({ type: "invalid_request_error", param: "X-Gateway-Metadata" });
    expect(body.error.message).toContain("X-Gateway-Metadata");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(openaiUpstream.requests).toHaveLength(0);
  });
});

describe("attempts", () => {
  it("records a retry on the first target, its fallback, and the served attempt on the next", async () => {
    openaiUpstream.use((_request, response) => sendJson(response, 503, { error: { message: "overloaded", type: "test" } }, { "retry-after": "0" }));
    const response = await chat("two-targets");
    expect(response.status).toBe(200);
    const event = await gateway.eventFor(response.headers.get("x-request-id")!);
    expect(event.attempts?.map(({ provider, status, outcome, reason }) => ({ provider, status, outcome, reason }))).toEqual([
      { provider: "openai-mock", status: 503, outcome: "retried", reason: "upstream_5xx" },
      { provider: "openai-mock", status: 503, outcome: "fell_back", reason: "upstream_5xx" },
      { provider: "anthropic-mock", status: 200, outcome: "served", reason: null },
    ]);
    expect(event.connectionId).toBe("con_anthropic");
    expect(event.gatewayOverheadMs).toBeGreaterThanOrEqual(0);
    expect(event.gatewayOverheadMs).toBeLessThanOrEqual(event.latencyMs);
  });

  it("records the failed attempt and the error message when every target fails", async () => {
    openaiUpstream.use((_request, response) => sendJson(response, 401, { error: { message: "bad key", type: "test" } }));
    anthropicUpstream.use((_request, response) => sendJson(response, 401, { type: "error", error: { type: "authentication_error", message: "bad key" } }));
    const response = await chat("two-targets");
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { message: string } };
    const event = await gateway.eventFor(response.headers.get("x-request-id")!);
    expect(event.attempts?.map(({ outcome, reason }) => [outcome, reason])).toEqual([
      ["fell_back", "upstream_4xx"],
      ["failed", "upstream_4xx"],
    ]);
    expect(event.errorMessage).toBe(body.error.message);
  });
});
