import type { ControlPlaneSnapshot, SnapshotConnection } from "@gateway/contracts";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GeminiMock, googleError, startGeminiMock } from "../../../packages/provider-adapters/test/mocks/gemini-mock.js";
import { createGatewayTestSnapshot, otherProjectApiKey, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, openAiHandler, startWireProvider } from "./support/wire-format-providers.js";

// A `gemini` connection through every endpoint it serves, driven by the official OpenAI and
// Anthropic clients; the upstream is the Gemini mock (itself checked by @google/genai).

const geminiModel = "gemini/google/gemini-2.5-flash";
const embeddingModel = "gemini/google/gemini-embedding-001";
const weatherTool = {
  type: "function" as const,
  function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

let gemini: GeminiMock;
let geminiDown: GeminiMock;
let openaiUpstream: WireProvider;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

function geminiConnection(fields: Partial<SnapshotConnection> & Pick<SnapshotConnection, "id" | "name">): SnapshotConnection {
  return {
    organizationId: "org_1", kind: "gemini", baseUrl: null, credential: null, headers: {}, models: ["google/gemini-2.5-flash", "google/gemini-embedding-001"],
    upstreamModelNames: {}, enabled: true, prices: {}, logprobs: null, defaultMaxTokens: null, timeouts: {}, responsesApi: null, modelEndpoints: {}, ...fields,
  };
}

beforeAll(async () => {
  gemini = await startGeminiMock();
  geminiDown = await startGeminiMock();
  openaiUpstream = await startWireProvider(openAiHandler());
  const base = createGatewayTestSnapshot({ openai: openaiUpstream.url });
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    connections: [
      ...base.connections,
      geminiConnection({ id: "con_gemini", name: "gemini", baseUrl: gemini.url, credential: gemini.apiKey }),
      geminiConnection({ id: "con_gemini_down", name: "gemini-down", baseUrl: geminiDown.url, credential: geminiDown.apiKey }),
    ],
    routes: [
      {
        id: "route_gemini_fallback", organizationId: "org_1", alias: "gemini-then-openai", strategy: "priority",
        targets: [{ model: "gemini-down/google/gemini-2.5-flash", weight: 1 }, { model: "openai-mock/openai/gpt-4o-mini", weight: 1 }],
        affinity: { enabled: false, ttlSeconds: 60 }, retry: { maxAttempts: 1 },
      },
    ],
    policies: [
      {
        id: "pol_output_pii", organizationId: "org_1", scope: "project", scopeId: "prj_other", allow: [], deny: [],
        guardrails: { rules: [{ type: "pii", name: "pii-out", action: "redact", detectors: ["email"], appliesTo: "output" }] },
      },
    ],
  };
  gateway = await startTestGateway(snapshot);
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: testApiKey });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: testApiKey });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([gemini?.close(), geminiDown?.close(), openaiUpstream?.close()]);
});

const requestIdOf = (response: Response) => response.headers.get("x-request-id") ?? "";

describe("a gemini connection through the gateway", () => {
  it("chat completions (JSON, tools): generateContent with the key header, tool calls back, usage and cost recorded at Gemini's default price", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: geminiModel, messages: [{ role: "user", content: "What is the weather in Paris and Rome?" }], tools: [weatherTool] })
      .withResponse();
    expect(data.choices[0]?.finish_reason).toBe("tool_calls");
    expect(data.choices[0]?.message.tool_calls?.map((call) => call.type === "function" && JSON.parse(call.function.arguments))).toEqual([{ city: "Paris" }, { city: "Rome" }]);
    const upstream = gemini.requests.at(-1)!;
    expect(upstream.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(upstream.headers["x-goog-api-key"]).toBe(gemini.apiKey);
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "chat_completions", status: 200, provider: "gemini", model: "google/gemini-2.5-flash" });
    expect(event.inputTokens).toBeGreaterThan(0);
    expect(event.costMicros).toBeGreaterThan(0);
  });

  it("chat completions (stream): text deltas, the finish and usage when asked for", async () => {
    const stream = await openai.chat.completions.create({ model: geminiModel, stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "Say hello" }] });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe("Hello from Gemini, how can I help?");
    expect(finish).toBe("stop");
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(gemini.requests.at(-1)!.query.get("alt")).toBe("sse");
  });

  it("messages (JSON and stream, tools) with the Anthropic client", async () => {
    const tools = [{ name: "get_weather", description: "Weather of a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } } } }];
    const message = await anthropic.messages.create({ model: geminiModel, max_tokens: 100, tools, messages: [{ role: "user", content: "What is the weather in Paris?" }] });
    expect(message.stop_reason).toBe("tool_use");
    const toolUse = message.content.find((block) => block.type === "tool_use");
    expect(toolUse).toMatchObject({ name: "get_weather", input: { city: "Paris" } });

    const followUp = anthropic.messages.stream({
      model: geminiModel, max_tokens: 100, tools,
      messages: [
        { role: "user", content: "What is the weather in Paris?" },
        { role: "assistant", content: message.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: (toolUse as { id: string }).id, content: "Sunny" }] },
      ],
    });
    const final = await followUp.finalMessage();
    expect(final.content[0]).toMatchObject({ type: "text", text: "get_weather says: Sunny" });
    expect(gemini.requests.at(-1)!.body.contents.at(-1).parts[0]).toEqual({ functionResponse: { name: "get_weather", response: { result: "Sunny" } } });
  });

  it("responses (JSON and stream) with the OpenAI client", async () => {
    const response = await openai.responses.create({ model: geminiModel, input: "Say hello", instructions: "Be brief." });
    expect(response.output_text).toBe("Hello from Gemini, how can I help?");
    expect(gemini.requests.at(-1)!.body.systemInstruction).toEqual({ parts: [{ text: "Be brief." }] });
    const stream = await openai.responses.create({ model: geminiModel, input: "Say hello", stream: true });
    let text = "";
    let completed = false;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = true;
    }
    expect(text).toBe("Hello from Gemini, how can I help?");
    expect(completed).toBe(true);
  });

  it("embeddings: batchEmbedContents behind the OpenAI client, usage estimated", async () => {
    const { data, response } = await openai.embeddings.create({ model: embeddingModel, input: ["hello", "world"], dimensions: 4 }).withResponse();
    expect(data.data.map((entry) => entry.embedding.length)).toEqual([4, 4]);
    expect(gemini.requests.at(-1)!.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "embeddings", status: 200, provider: "gemini" });
    expect(event.inputTokens).toBeGreaterThan(0);
  }, 30_000);

  it("count_tokens: Gemini's countTokens", async () => {
    const counted = await anthropic.messages.countTokens({ model: geminiModel, system: "Be brief.", messages: [{ role: "user", content: "one two three" }] }).withResponse();
    expect(counted.data.input_tokens).toBeGreaterThan(3);
    expect(counted.response.headers.get("x-gateway-token-count")).toBe("provider");
    expect(gemini.requests.at(-1)!.path).toBe("/v1beta/models/gemini-2.5-flash:countTokens");
  });

  it("decisions with measured log-probabilities", async () => {
    const { status, body } = await postDecision(gateway.url, { body: decisionBody(geminiModel), apiKey: testApiKey });
    expect(status).toBe(200);
    expect(body.answers.escalate).toMatchObject({ type: "noul", probability_source: "logprobs" });
    expect(body.answers.escalate.noul).toBeCloseTo(0.6, 6);
    expect(gemini.requests.at(-1)!.body.generationConfig.responseLogprobs).toBe(true);
  });

  it("/v1/models lists the connection's models for the key", async () => {
    const ids = (await openai.models.list()).data.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining([geminiModel, embeddingModel]));
  });

  it("falls back to another provider when Gemini is unavailable, and never shows the key", async () => {
    geminiDown.reply({ status: 503, json: googleError(503, "UNAVAILABLE", `Overloaded (${geminiDown.apiKey}).`) });
    const { data, response } = await openai.chat.completions.create({ model: "gemini-then-openai", messages: [{ role: "user", content: "Hi" }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe("Hello from the OpenAI mock.");
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event.provider).toBe("openai-mock");
    expect(event.attempts?.map((attempt) => attempt.provider)).toEqual(["gemini-down", "openai-mock"]);

    geminiDown.reply({ status: 429, json: googleError(429, "RESOURCE_EXHAUSTED", `Quota exceeded for key ${geminiDown.apiKey}.`, [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" }]) });
    const limited = await openai.chat.completions.create({ model: "gemini-down/google/gemini-2.5-flash", messages: [{ role: "user", content: "Hi" }] }, { maxRetries: 0 }).then(
      () => null,
      (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>,
    );
    expect(limited?.status).toBe(429);
    expect(limited?.headers?.get("retry-after")).toBe("7");
    expect(JSON.stringify(limited?.error)).not.toContain(geminiDown.apiKey);
  });

  it("refuses a request Gemini cannot represent with the field named", async () => {
    const refused = await openai.chat.completions.create({ model: geminiModel, messages: [{ role: "user", content: "Hi" }], tools: [weatherTool], parallel_tool_calls: false }).then(
      () => null,
      (caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>,
    );
    expect(refused?.status).toBe(400);
    expect(refused?.error).toMatchObject({ param: "parallel_tool_calls" });
  });

  it("output guardrails redact a Gemini answer, streamed across chunks and whole", async () => {
    const chunk = (text: string, finishReason?: string) => ({ candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) }] });
    gemini.reply({ stream: [chunk("Write to "), chunk("jane.do"), chunk("e@examp"), chunk("le.com today.", "STOP")] });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: otherProjectApiKey });
    const stream = await client.chat.completions.create({ model: geminiModel, messages: [{ role: "user", content: "Contact?" }], stream: true });
    let text = "";
    for await (const part of stream) text += part.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Write to [REDACTED:email] today.");

    gemini.reply({ json: { ...chunk("Mail jane.doe@example.com.", "STOP"), usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 } } });
    const message = await new Anthropic({ baseURL: gateway.url, apiKey: otherProjectApiKey }).messages.create({ model: geminiModel, max_tokens: 50, messages: [{ role: "user", content: "Contact?" }] });
    expect(message.content).toMatchObject([{ type: "text", text: "Mail [REDACTED:email]." }]);
  });
});
