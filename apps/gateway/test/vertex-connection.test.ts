import Anthropic from "@anthropic-ai/sdk";
import type { ControlPlaneSnapshot, SnapshotConnection } from "@gateway/contracts";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServiceAccount } from "../../../packages/provider-adapters/test/mocks/google-service-account.js";
import { type VertexMock, startVertexMock } from "../../../packages/provider-adapters/test/mocks/vertex-mock.js";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, sendJson, startWireProvider } from "./support/wire-format-providers.js";

// A `vertex` connection (Claude on Vertex AI, the mock checked by @anthropic-ai/vertex-sdk)
// driven through the gateway by the official openai and @anthropic-ai/sdk clients, and an
// `anthropic` connection falling back to it.

const account = createTestServiceAccount();
const vertexModel = "vertex/anthropic/claude-sonnet-4@20250514";
const weatherTool = {
  type: "function" as const,
  function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};
const anthropicWeatherTool = { name: "get_weather", description: "Weather of a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] } };

let mock: VertexMock;
let failingAnthropic: WireProvider;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  mock = await startVertexMock({ project: "test-project", location: "us-east5", serviceAccount: account });
  failingAnthropic = await startWireProvider((_request, response) => sendJson(response, 529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
  const snapshot: ControlPlaneSnapshot = createGatewayTestSnapshot(
    { anthropic: failingAnthropic.url },
    {
      routes: [
        {
          id: "route_claude_fallback",
          organizationId: "org_1",
          alias: "claude-fallback",
          strategy: "priority",
          targets: [
            { model: "anthropic-mock/anthropic/claude-sonnet-4", weight: 1 },
            { model: vertexModel, weight: 1 },
          ],
          affinity: { enabled: false, ttlSeconds: 60 },
          retry: { maxAttempts: 1 },
        },
      ],
    },
  );
  const template = snapshot.connections[0]!;
  const vertex: SnapshotConnection = {
    ...template,
    id: "con_vertex",
    name: "vertex",
    kind: "vertex",
    baseUrl: mock.url,
    credential: account.credential(mock.tokenUrl),
    models: ["anthropic/claude-sonnet-4@20250514"],
    prices: { "anthropic/claude-sonnet-4@20250514": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
    settings: { project: "test-project", location: "us-east5" },
  };
  snapshot.connections.push(vertex);
  gateway = await startTestGateway(snapshot);
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: testApiKey, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: testApiKey, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([mock?.close(), failingAnthropic?.close()]);
});

describe("a vertex connection through the gateway", () => {
  it("chat completions with tools, JSON and streamed", async () => {
    const completion = await openai.chat.completions.create({ model: vertexModel, messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weatherTool], tool_choice: "required" });
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    expect(completion.choices[0]!.message.tool_calls?.[0]).toMatchObject({ type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } });
    expect(completion.usage).toMatchObject({ completion_tokens: 9 });

    const stream = await openai.chat.completions.create({ model: vertexModel, messages: [{ role: "user", content: "Weather?" }], tools: [weatherTool], tool_choice: "required", stream: true, stream_options: { include_usage: true } });
    let argumentsText = "";
    let finishReason: string | null | undefined;
    for await (const chunk of stream) {
      argumentsText += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
    }
    expect(JSON.parse(argumentsText)).toEqual({ city: "Paris" });
    expect(finishReason).toBe("tool_calls");
    const upstream = mock.calls.at(-1)!;
    expect(upstream.path).toMatch(/publishers\/anthropic\/models\/claude-sonnet-4@20250514:streamRawPredict$/);
    expect(upstream.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", stream: true });
    expect(upstream.body.model).toBeUndefined();
  });

  it("messages pass through, JSON and streamed, with tools", async () => {
    const message = await anthropic.messages.create({ model: vertexModel, max_tokens: 100, messages: [{ role: "user", content: "Hi" }] });
    expect(message.content).toEqual([{ type: "text", text: "Hello from Claude on Vertex." }]);
    const stream = anthropic.messages.stream({
      model: vertexModel,
      max_tokens: 100,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [anthropicWeatherTool],
      tool_choice: { type: "tool", name: "get_weather" },
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: "tool_use", id: "toolu_vrtx_01", name: "get_weather", input: { city: "Paris" } }]);
    expect(final.usage.output_tokens).toBe(9);
  });

  it("the Responses API, JSON and streamed", async () => {
    const response = await openai.responses.create({ model: vertexModel, input: "Hi" });
    expect(response.output_text).toBe("Hello from Claude on Vertex.");
    const stream = await openai.responses.create({ model: vertexModel, input: "Hi", stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toContain("response.output_text.delta");
    expect(types.at(-1)).toBe("response.completed");
  });

  it("count_tokens is Vertex's count", async () => {
    const count = await anthropic.messages.countTokens({ model: vertexModel, messages: [{ role: "user", content: "Hello there" }] });
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(mock.calls.at(-1)).toMatchObject({ method: "count-tokens", model: "claude-sonnet-4@20250514" });
  });

  it("decisions with stated probabilities", async () => {
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody(vertexModel) });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.answers)).toEqual(["escalate"]);
    expect(mock.calls.at(-1)!.body.tool_choice).toMatchObject({ type: "tool", name: "record_probabilities" });
  });

  it("a Claude route falls back from an overloaded anthropic connection to Claude on Vertex", async () => {
    const before = mock.calls.length;
    const message = await anthropic.messages.create({ model: "claude-fallback", max_tokens: 50, messages: [{ role: "user", content: "Hi" }] });
    expect(message.content).toEqual([{ type: "text", text: "Hello from Claude on Vertex." }]);
    expect(failingAnthropic.requests.length).toBeGreaterThan(0);
    expect(mock.calls.length).toBe(before + 1);
  });

  it("lists the vertex model in /v1/models and fetched one token for every call", async () => {
    const models = await openai.models.list();
    expect(models.data.map((model) => model.id)).toContain(vertexModel);
    expect(mock.issuedTokens).toHaveLength(1);
  });
});
