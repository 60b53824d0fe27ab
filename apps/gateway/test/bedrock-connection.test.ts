import type { ControlPlaneSnapshot, SnapshotConnection } from "@gateway/contracts";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BedrockMock, startBedrockMock } from "../../../packages/provider-adapters/test/mocks/bedrock-mock.js";
import { bedrockMockText, converseEvents } from "../../../packages/provider-adapters/test/mocks/bedrock-mock-answers.js";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, sendJson, startWireProvider } from "./support/wire-format-providers.js";

// A `bedrock` connection end to end: the official openai and Anthropic clients through the
// gateway, a local mock speaking Bedrock's wire format (SigV4 verified on every request).

const accessKeyId = "AKIAGATEWAYE2E000001";
const secretAccessKey = "gateway-e2e-secret-access-key-0123456789";
const claude = "bedrock/anthropic/claude-sonnet-4-20250514-v1:0";
const titan = "bedrock/amazon/titan-embed-text-v2:0";
const weatherTool = { type: "function" as const, function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };

let mock: BedrockMock;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  mock = await startBedrockMock({ keys: { [accessKeyId]: { secretAccessKey } }, region: "eu-west-1" });
  anthropicUpstream = await startWireProvider(anthropicHandler());
  const base = createGatewayTestSnapshot({ anthropic: anthropicUpstream.url });
  const bedrock: SnapshotConnection = {
    id: "con_bedrock",
    organizationId: "org_1",
    name: "bedrock",
    kind: "bedrock",
    baseUrl: mock.url,
    credential: JSON.stringify({ accessKeyId, secretAccessKey }),
    headers: {},
    models: ["anthropic/claude-sonnet-4-20250514-v1:0", "amazon/titan-embed-text-v2:0"],
    upstreamModelNames: {},
    enabled: true,
    prices: {},
    logprobs: null,
    defaultMaxTokens: null,
    timeouts: {},
    responsesApi: null,
    modelEndpoints: {},
    settings: { region: "eu-west-1" },
  };
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    connections: [...base.connections, bedrock],
    routes: [
      {
        id: "route_claude",
        organizationId: "org_1",
        alias: "claude",
        strategy: "priority",
        targets: [
          { model: "anthropic-mock/anthropic/claude-sonnet-4", weight: 1 },
          { model: claude, weight: 1 },
        ],
        affinity: { enabled: false, ttlSeconds: 60 },
        retry: { maxAttempts: 1 },
      },
    ],
  };
  gateway = await startTestGateway(snapshot);
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: testApiKey, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: testApiKey, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([mock?.close(), anthropicUpstream?.close()]);
});

beforeEach(() => {
  mock.use(null);
  anthropicUpstream.use(null);
});

const requestIdOf = (response: Response) => response.headers.get("x-request-id") ?? "";

describe("a bedrock connection through the official clients", () => {
  it("chat completions (JSON): signed Converse call, usage recorded with cache tokens and Bedrock's default price", async () => {
    const { data, response } = await openai.chat.completions.create({ model: claude, messages: [{ role: "user", content: "Hi" }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe(bedrockMockText);
    expect(data.usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 7 });
    expect(mock.requests.at(-1)).toMatchObject({ modelId: "anthropic.claude-sonnet-4-20250514-v1:0", operation: "converse" });
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "chat_completions", status: 200, provider: "bedrock", inputTokens: 12, outputTokens: 7, cacheReadTokens: 3, cacheWriteTokens: 2 });
    expect(event.costMicros).toBeGreaterThan(0);
  });

  it("chat completions (streamed) with tools: tool call deltas and usage", async () => {
    const stream = await openai.chat.completions.create({ model: claude, messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weatherTool], stream: true, stream_options: { include_usage: true } });
    let name = "";
    let args = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      name += call?.function?.name ?? "";
      args += call?.function?.arguments ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(mock.requests.at(-1)!.operation).toBe("converse-stream");
    expect(name).toBe("get_weather");
    expect(JSON.parse(args)).toEqual({ city: "Paris" });
    expect(finish).toBe("tool_calls");
    expect(usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 7 });
  });

  it("messages (JSON and streamed) with the Anthropic client", async () => {
    const message = await anthropic.messages.create({ model: claude, max_tokens: 100, messages: [{ role: "user", content: "Hi" }] });
    expect(message.content[0]).toMatchObject({ type: "text", text: bedrockMockText });
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 7, cache_read_input_tokens: 3 });

    const stream = anthropic.messages.stream({ model: claude, max_tokens: 100, messages: [{ role: "user", content: "Weather?" }], tools: [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }] });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe("tool_use");
    expect(final.content.find((block) => block.type === "tool_use")).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
  });

  it("responses (JSON and streamed), translated", async () => {
    const response = await openai.responses.create({ model: claude, input: "Hi", instructions: "Be brief." });
    expect(response.output_text).toBe(bedrockMockText);
    expect(mock.requests.at(-1)!.body.system).toEqual([{ text: "Be brief." }]);

    const stream = await openai.responses.create({ model: claude, input: "Hi", stream: true });
    let text = "";
    let completed = false;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = true;
    }
    expect(text).toBe(bedrockMockText);
    expect(completed).toBe(true);
  });

  it("an in-stream throttlingException reaches the openai client as a stream error", async () => {
    mock.use(() => ({ events: [...converseEvents([{ text: "Partial" }], "end_turn").slice(0, 2), { exception: "throttlingException", message: "Too many tokens, please wait before trying again." }] }));
    const stream = await openai.chat.completions.create({ model: claude, messages: [{ role: "user", content: "Hi" }], stream: true });
    await expect(
      (async () => {
        for await (const _chunk of stream) void _chunk;
      })(),
    ).rejects.toThrow(/Too many tokens/);
  });

  it("a ThrottlingException answer is a 429 for the caller; an AccessDenied one never shows the keys", async () => {
    mock.use(() => ({ json: { message: "Too many requests, please wait before trying again." }, status: 429, errorType: "ThrottlingException" }));
    await expect(openai.chat.completions.create({ model: claude, messages: [{ role: "user", content: "Hi" }] })).rejects.toMatchObject({ status: 429 });
    mock.use(() => ({ json: { message: `Denied for ${accessKeyId} / ${secretAccessKey}` }, status: 403, errorType: "AccessDeniedException" }));
    const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" }, body: JSON.stringify({ model: claude, messages: [{ role: "user", content: "Hi" }] }) });
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(text).not.toContain(secretAccessKey);
    expect(text).not.toContain(accessKeyId);
  });

  it("embeddings through InvokeModel (Titan), base64 as the openai client asks", async () => {
    const { data, response } = await openai.embeddings.create({ model: titan, input: ["first text", "second"], dimensions: 256 }).withResponse();
    expect(data.data.map((entry) => entry.embedding.length)).toEqual([256, 256]);
    expect(mock.requests.at(-1)).toMatchObject({ modelId: "amazon.titan-embed-text-v2:0", operation: "invoke" });
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "embeddings", status: 200, provider: "bedrock", inputTokens: 3 });
  });

  it("count_tokens through Bedrock's CountTokens API", async () => {
    const { data, response } = await anthropic.messages.countTokens({ model: claude, messages: [{ role: "user", content: "Hello there" }] }).withResponse();
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(response.headers.get("x-gateway-token-count")).toBe("provider");
    expect(mock.requests.at(-1)!.operation).toBe("count-tokens");
  });

  it("decisions with stated probabilities through a forced tool call", async () => {
    const result = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody(claude) });
    expect(result.status).toBe(200);
    expect(result.body.answers.escalate).toMatchObject({ probability_source: "stated" });
    expect(mock.requests.at(-1)!.body.toolConfig.toolChoice).toEqual({ tool: { name: "record_probabilities" } });
  });

  it("falls back from Claude on Anthropic to Claude on Bedrock", async () => {
    anthropicUpstream.use((_request, response) => sendJson(response, 529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
    const { data, response } = await anthropic.messages.create({ model: "claude", max_tokens: 50, messages: [{ role: "user", content: "Hi" }] }).withResponse();
    expect(data.content[0]).toMatchObject({ type: "text", text: bedrockMockText });
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ status: 200, routeId: "route_claude", provider: "bedrock" });
  });

  it("lists the connection's models for the key", async () => {
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining([claude, titan]));
  });
});
