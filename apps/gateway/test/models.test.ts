import OpenAI from "openai";
import { VERSION as openAiVersion } from "openai/version";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createGatewayTestSnapshot, otherProjectApiKey, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type MockProvider, startMockProvider, systemOneHandler } from "./support/mock-provider.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";

let native: MockProvider;
let gateway: TestGateway;

beforeAll(async () => {
  native = await startMockProvider(systemOneHandler());
  const base = createGatewayTestSnapshot({ systemone: native.baseUrl });
  gateway = await startTestGateway({
    ...base,
    connections: [
      ...base.connections.filter((connection) => connection.kind === "demo" || connection.kind === "systemone"),
      {
        ...base.connections.find((connection) => connection.kind === "systemone")!,
        id: "con_disabled",
        name: "disabled",
        enabled: false,
      },
    ],
    routes: [
      {
        id: "route_fast",
        organizationId: "org_1",
        alias: "fast",
        strategy: "priority",
        targets: [{ model: "native/systemone/s1", weight: 1 }],
        affinity: { enabled: false, ttlSeconds: 60 },
        retry: { maxAttempts: 1 },
      },
    ],
    policies: [
      // The other project may only use the demo provider.
      { id: "pol_other", organizationId: "org_1", scope: "project", scopeId: "prj_other", allow: ["demo/**"], deny: [], guardrails: null },
    ],
  });
});

afterAll(async () => {
  await gateway?.close();
  await native?.close();
});

async function listModels(apiKey: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${apiKey}`, ...headers } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe("GET /v1/models", () => {
  it("lists the key's models in OpenAI's list format", async () => {
    const response = await listModels(testApiKey);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(response.body.object).toBe("list");
    expect(response.body.data.map((model: { id: string }) => model.id).sort()).toEqual(["demo/demo/decider", "fast", "native/systemone/s1"]);
    for (const model of response.body.data) {
      expect(model).toEqual({ id: model.id, object: "model", created: expect.any(Number), owned_by: expect.any(String), endpoints: expect.any(Array) });
    }
  });

  it("uses Anthropic's format (and accepts x-api-key) when the request carries anthropic-version", async () => {
    const response = await fetch(`${gateway.url}/v1/models`, {
      headers: { "x-api-key": testApiKey, "anthropic-version": "2023-06-01" },
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(200);
    expect(body.has_more).toBe(false);
    expect(body.first_id).toBe(body.data[0].id);
    expect(body.last_id).toBe(body.data.at(-1).id);
    expect(body.data[0]).toEqual({ type: "model", id: expect.any(String), display_name: expect.any(String), created_at: expect.any(String) });
  });

  it("answers 401 in the Anthropic body for an Anthropic client with a bad key", async () => {
    const response = await fetch(`${gateway.url}/v1/models`, { headers: { "x-api-key": "gak_nope_0123456789abcdef", "anthropic-version": "2023-06-01" } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
  });

  it("lists exactly what each key may use: every listed model is accepted, an unlisted one refused", async () => {
    for (const apiKey of [testApiKey, otherProjectApiKey]) {
      const listed: string[] = (await listModels(apiKey)).body.data.map((model: { id: string }) => model.id);
      for (const model of listed) {
        const response = await postDecision(gateway.url, { apiKey, body: decisionBody(model) });
        expect({ model, status: response.status }).toEqual({ model, status: 200 });
      }
      for (const unlisted of ["native/systemone/s1", "disabled/systemone/s1", "fast"].filter((model) => !listed.includes(model))) {
        const response = await postDecision(gateway.url, { apiKey, body: decisionBody(unlisted) });
        expect([403, 404]).toContain(response.status);
      }
    }
    const other = (await listModels(otherProjectApiKey)).body.data.map((model: { id: string }) => model.id);
    expect(other).toEqual(["demo/demo/decider"]);
    const refused = await postDecision(gateway.url, { apiKey: otherProjectApiKey, body: decisionBody("native/systemone/s1") });
    expect(refused.status).toBe(403);
  });

  it("works with the official openai npm client", async () => {
    const client = new OpenAI({ apiKey: testApiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids.sort()).toEqual(["demo/demo/decider", "fast", "native/systemone/s1"]);
    await vi.waitFor(
      () => {
        const labels = gateway.events.filter((event) => event.endpoint === "models").map((event) => event.clientLabel);
        expect(labels).toContain(`openai-node/${openAiVersion}`);
      },
      { timeout: 3000, interval: 10 },
    );
    const refused = new OpenAI({ apiKey: "gak_wrong_0123456789abcdefghij", baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    await expect(refused.models.list()).rejects.toMatchObject({ status: 401 });
  });
});
