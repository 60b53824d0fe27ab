import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, openAiHandler, sendJson, startWireProvider } from "./support/wire-format-providers.js";

const openAiModel = "openai-mock/openai/gpt-4o-mini";
const anthropicModel = "anthropic-mock/anthropic/claude-sonnet-4";

/**
 * Retries on the same target and fallbacks to the next, against local providers that answer
 * what the test tells them: a route with `retry.maxAttempts: 3` and two targets.
 */
let openaiUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  const route = (id: string, alias: string, targets: string[]) => ({
    id,
    organizationId: "org_1",
    alias,
    strategy: "priority" as const,
    targets: targets.map((model) => ({ model, weight: 1 })),
    affinity: { enabled: false, ttlSeconds: 60 },
    retry: { maxAttempts: 3 },
  });
  const snapshot: ControlPlaneSnapshot = createGatewayTestSnapshot(
    { openai: openaiUpstream.url, anthropic: anthropicUpstream.url },
    { routes: [route("route_two", "two-targets", [openAiModel, anthropicModel]), route("route_one", "one-target", [openAiModel])] },
  );
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

const chat = (model: string) =>
  fetch(`${gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi" }] }),
  });

/** The OpenAI mock answers `status` with an OpenAI error body. */
const openAiAnswers = (status: number, headers: Record<string, string> = {}) =>
  openaiUpstream.use((_request, response) => sendJson(response, status, { error: { message: `status ${status}`, type: "test" } }, headers));

describe("upstream answers that repeating cannot change", () => {
  it("a 401 is tried once on the target, then the route falls back to its next target", async () => {
    openAiAnswers(401);
    const response = await chat("two-targets");
    expect(response.status).toBe(200);
    expect(openaiUpstream.requests).toHaveLength(1);
    expect(anthropicUpstream.requests).toHaveLength(1);
  });

  it("a 401 on a route's only target: one attempt, answered 502 upstream_error", async () => {
    openAiAnswers(401);
    const response = await chat("one-target");
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("upstream_error");
    expect(openaiUpstream.requests).toHaveLength(1);
  });

  for (const status of [403, 404]) {
    it(`a ${status} is tried once per target`, async () => {
      openAiAnswers(status);
      const response = await chat("one-target");
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(openaiUpstream.requests).toHaveLength(1);
    });
  }

  for (const status of [400, 422]) {
    it(`a ${status} ends the call: one attempt, no fallback (any target would refuse the request alike)`, async () => {
      openAiAnswers(status);
      const response = await chat("two-targets");
      expect(response.status).toBe(400);
      expect(openaiUpstream.requests).toHaveLength(1);
      expect(anthropicUpstream.requests).toHaveLength(0);
    });
  }
});

describe("upstream answers that a repeat may change", () => {
  for (const status of [429, 503]) {
    it(`a ${status} is retried on the same target up to retry.maxAttempts`, async () => {
      openAiAnswers(status, { "retry-after": "0" });
      const response = await chat("one-target");
      expect(response.status).toBe(status === 429 ? 429 : 502);
      expect(openaiUpstream.requests).toHaveLength(3);
    });
  }

  it("a 503 that clears on the second attempt is answered by the same target", async () => {
    let calls = 0;
    openaiUpstream.use((request, response) => {
      calls += 1;
      if (calls === 1) sendJson(response, 503, { error: { message: "busy" } }, { "retry-after": "0" });
      else openAiHandler()(request, response);
    });
    const response = await chat("two-targets");
    expect(response.status).toBe(200);
    expect(openaiUpstream.requests).toHaveLength(2);
    expect(anthropicUpstream.requests).toHaveLength(0);
  });
});
