import type { ControlPlaneSnapshot } from "@gateway/contracts";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, otherProjectApiKey, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import {
  type WireProvider,
  anthropicFailingStream,
  anthropicHandler,
  openAiContentFrames,
  openAiHandler,
  responsesHandler,
  responsesObject,
  sendEvents,
  sseFrame,
  startWireProvider,
} from "./support/wire-format-providers.js";

const nativeModel = "openai-native/openai/gpt-4.1-mini";
const chatModel = "openai-mock/openai/gpt-4o-mini";
const anthropicModel = "anthropic-mock/anthropic/claude-sonnet-4";
const embeddingModel = "openai-native/openai/text-embedding-3-small";
const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  strict: false,
};

let responsesUpstream: WireProvider;
let chatUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;
let openai: OpenAI;
let otherProject: OpenAI;

beforeAll(async () => {
  responsesUpstream = await startWireProvider(responsesHandler());
  chatUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  const base = createGatewayTestSnapshot({ openai: chatUpstream.url, anthropic: anthropicUpstream.url });
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    connections: [
      ...base.connections.map((connection) => (connection.kind === "demo" ? { ...connection, models: ["demo/decider", "demo/embed"] } : connection)),
      {
        ...base.connections.find((connection) => connection.name === "openai-mock")!,
        id: "con_native",
        name: "openai-native",
        baseUrl: `${responsesUpstream.url}/v1`,
        responsesApi: true,
        models: ["openai/gpt-4.1-mini", "openai/text-embedding-3-small"],
        upstreamModelNames: { "openai/gpt-4.1-mini": "gpt-4.1-mini", "openai/text-embedding-3-small": "text-embedding-3-small" },
        prices: { "openai/gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1 }, "openai/text-embedding-3-small": { input: 0.02, output: 0 } },
      },
    ],
  };
  gateway = await startTestGateway(snapshot);
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: testApiKey, maxRetries: 0 });
  otherProject = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: otherProjectApiKey, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([responsesUpstream?.close(), chatUpstream?.close(), anthropicUpstream?.close()]);
});

beforeEach(() => {
  for (const upstream of [responsesUpstream, chatUpstream, anthropicUpstream]) upstream.use(null);
});

const requestIdOf = (response: Response) => response.headers.get("x-request-id") ?? "";
/** `store` of a response object (sent by OpenAI and the gateway; the SDK's type leaves it out). */
const storeOf = (response: object) => (response as { store?: unknown }).store;

const routes = [
  {
    name: "native OpenAI Responses",
    model: nativeModel,
    upstream: () => responsesUpstream,
    path: "/v1/responses",
    text: "Hello from the Responses mock.",
    usage: { inputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 0, outputTokens: 9, reasoningTokens: 2 },
    calls: [["call_weather_paris", { city: "Paris" }]],
  },
  {
    name: "translated to chat completions (chat-only OpenAI-compatible)",
    model: chatModel,
    upstream: () => chatUpstream,
    path: "/v1/chat/completions",
    text: "Hello from the OpenAI mock.",
    usage: { inputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 0, outputTokens: 9, reasoningTokens: 0 },
    calls: [
      ["call_weather_paris", { city: "Paris" }],
      ["call_weather_rome", { city: "Rome" }],
    ],
  },
  {
    name: "translated to Anthropic messages",
    model: anthropicModel,
    upstream: () => anthropicUpstream,
    path: "/v1/messages",
    text: "Hello from the Anthropic mock.",
    usage: { inputTokens: 25, cacheReadTokens: 10, cacheWriteTokens: 3, outputTokens: 15, reasoningTokens: 0 },
    calls: [["toolu_paris", { city: "Paris" }]],
  },
] as const;

describe.each(routes)("POST /v1/responses with the openai client: $name", (route) => {
  it("responses.create: the answer, the upstream request, usage with cached tokens, and the stored response", async () => {
    const { data, response } = await openai.responses
      .create({ model: route.model, instructions: "Be brief.", input: "Hi", metadata: { ticket: "T-1" }, max_output_tokens: 200 })
      .withResponse();
    expect(data.object).toBe("response");
    expect(data.status).toBe("completed");
    expect(data.output_text).toBe(route.text);
    expect(storeOf(data)).toBe(true);
    expect(data.metadata).toEqual({ ticket: "T-1" });
    const upstream = route.upstream().requests.at(-1)!;
    expect(upstream.path).toBe(route.path);
    if (route.path === "/v1/responses") expect(upstream.body).toMatchObject({ model: "gpt-4.1-mini", instructions: "Be brief.", input: "Hi", store: false, max_output_tokens: 200 });
    if (route.path === "/v1/chat/completions") {
      expect(upstream.body).toMatchObject({ model: "gpt-4o-mini", max_completion_tokens: 200, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }] });
      expect(upstream.body).not.toHaveProperty("metadata");
    }
    if (route.path === "/v1/messages") expect(upstream.body).toMatchObject({ model: "claude-sonnet-4-20250514", max_tokens: 200, system: "Be brief.", messages: [{ role: "user", content: "Hi" }] });
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "responses", status: 200, requestedModel: route.model, ...route.usage });
    const stored = await openai.responses.retrieve(data.id);
    expect(stored.output_text).toBe(route.text);
  });

  it("responses.stream: every event numbered in order, the final response with usage, stored before the terminal event", async () => {
    const stream = openai.responses.stream({ model: route.model, input: "Hi" });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = "";
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === "response.output_text.delta") text += event.delta;
    }
    const final = await stream.finalResponse();
    expect(text).toBe(route.text);
    expect(final.output_text).toBe(route.text);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(types).toContain("response.output_item.added");
    expect(types).toContain("response.output_item.done");
    expect(sequence).toEqual(sequence.map((_value, index) => sequence[0]! + index));
    expect(final.usage).toMatchObject({ input_tokens: route.usage.inputTokens + route.usage.cacheReadTokens + route.usage.cacheWriteTokens, output_tokens: route.usage.outputTokens });
    expect(storeOf(final)).toBe(true);
    // Readable at once: the write completed before the terminal event was sent.
    expect((await openai.responses.retrieve(final.id)).output_text).toBe(route.text);
  });

  it("a function-tool round trip with previous_response_id: the upstream receives the earlier turn; input items, retrieval and deletion", async () => {
    const first = await openai.responses.create({ model: route.model, input: "What is the weather in Paris?", tools: [weatherTool] });
    const calls = first.output.filter((item) => item.type === "function_call");
    expect(calls.map((call) => [call.call_id, JSON.parse(call.arguments)])).toEqual(route.calls);
    expect(calls[0]).toMatchObject({ name: "get_weather", status: "completed" });

    const second = await openai.responses.create({
      model: route.model,
      previous_response_id: first.id,
      input: calls.map((call) => ({ type: "function_call_output" as const, call_id: call.call_id, output: '{"temperature":21}' })),
      tools: [weatherTool],
    });
    expect(second.output_text).toBe(route.text);
    expect(second.previous_response_id).toBe(first.id);
    const upstream = route.upstream().requests.at(-1)!.body;
    if (route.path === "/v1/responses") {
      expect(upstream).not.toHaveProperty("previous_response_id");
      expect(upstream.input).toEqual([
        { type: "message", role: "user", content: [{ type: "input_text", text: "What is the weather in Paris?" }] },
        { type: "function_call", status: "completed", arguments: '{"city":"Paris"}', call_id: "call_weather_paris", name: "get_weather" },
        { type: "function_call_output", call_id: "call_weather_paris", output: '{"temperature":21}' },
      ]);
    }
    if (route.path === "/v1/chat/completions") {
      expect(upstream.messages.map((message: { role: string }) => message.role)).toEqual(["user", "assistant", "tool", "tool"]);
      expect(upstream.messages[1].tool_calls.map((call: { id: string }) => call.id)).toEqual(["call_weather_paris", "call_weather_rome"]);
    }
    if (route.path === "/v1/messages") {
      expect(upstream.messages[1].content).toEqual([
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "toolu_paris", name: "get_weather", input: { city: "Paris" } },
      ]);
      expect(upstream.messages[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_paris", content: '{"temperature":21}' });
    }

    const items = await openai.responses.inputItems.list(second.id, { order: "asc" });
    expect(items.data).toEqual(
      calls.map((call) => ({ id: expect.stringMatching(/^fco_[0-9a-f]{32}$/), type: "function_call_output", call_id: call.call_id, output: '{"temperature":21}', status: "completed" })),
    );

    // Another project never sees it, nor continues it.
    await expect(otherProject.responses.retrieve(second.id)).rejects.toMatchObject({ status: 404 });
    await expect(otherProject.responses.create({ model: route.model, previous_response_id: second.id, input: "Go on" })).rejects.toMatchObject({ status: 400, code: "previous_response_not_found" });
    await expect(otherProject.responses.delete(second.id)).rejects.toMatchObject({ status: 404 });

    await openai.responses.delete(second.id);
    await expect(openai.responses.retrieve(second.id)).rejects.toMatchObject({ status: 404 });
    await expect(openai.responses.create({ model: route.model, previous_response_id: second.id, input: "Go on" })).rejects.toMatchObject({ status: 400, code: "previous_response_not_found" });
  });
});

describe("POST /v1/responses: conversation state and failures", () => {
  it("a project that does not capture content stores nothing: store: true is refused by name, answers say store: false", async () => {
    await expect(otherProject.responses.create({ model: nativeModel, input: "Hi", store: true })).rejects.toMatchObject({ status: 400, code: "unsupported_feature", param: "store" });
    const answer = await otherProject.responses.create({ model: nativeModel, input: "Hi" });
    expect(storeOf(answer)).toBe(false);
    await expect(otherProject.responses.retrieve(answer.id)).rejects.toMatchObject({ status: 404 });
    const explicit = await openai.responses.create({ model: chatModel, input: "Hi", store: false });
    expect(storeOf(explicit)).toBe(false);
    await expect(openai.responses.retrieve(explicit.id)).rejects.toMatchObject({ status: 404 });
  });

  it("what a translation cannot represent is refused by name, never dropped", async () => {
    await expect(openai.responses.create({ model: chatModel, input: "Hi", tools: [{ type: "web_search" }] })).rejects.toMatchObject({ status: 400, code: "unsupported_feature", param: "tools[0].type" });
    await expect(openai.responses.create({ model: anthropicModel, input: "Hi", reasoning: { effort: "high" } })).rejects.toMatchObject({ status: 400, code: "unsupported_feature", param: "reasoning.effort" });
    await expect(openai.responses.create({ model: chatModel, input: "Hi", background: true })).rejects.toMatchObject({ status: 400, code: "unsupported_feature", param: "background" });
    expect(anthropicUpstream.requests.filter((request) => request.body?.reasoning !== undefined)).toEqual([]);
  });

  it("native: reasoning and unknown fields pass through; the provider's JSON bytes go out unchanged when nothing differs", async () => {
    await openai.responses.create({ model: nativeModel, input: "Hi", store: false, reasoning: { effort: "low" }, ...({ future_field: 1 } as object) });
    expect(responsesUpstream.requests.at(-1)!.body).toMatchObject({ reasoning: { effort: "low" }, future_field: 1, store: false });
    const upstreamText = JSON.stringify({ ...JSON.parse(JSON.stringify({ id: "resp_bytes", object: "response", status: "completed", store: false, previous_response_id: null, output: [] })), usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } }, null, 2);
    responsesUpstream.use((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(upstreamText) });
      response.end(upstreamText);
    });
    const raw = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: nativeModel, input: "Hi", store: false }),
    });
    expect(await raw.text()).toBe(upstreamText);
  });

  it.each([
    ["a chat stream cut before it finished", chatModel, () => chatUpstream, (response: import("node:http").ServerResponse) => sendEvents(response, openAiContentFrames("gpt-4o-mini", ["Partial"])), "upstream_error", 502],
    ["an Anthropic error event mid-stream (overloaded)", anthropicModel, () => anthropicUpstream, (response: import("node:http").ServerResponse) => sendEvents(response, anthropicFailingStream("claude-sonnet-4-20250514")), "service_unavailable", 503],
  ] as const)("%s: the caller receives the protocol's error event and response.failed; the partial usage is billed", async (_name, model, upstream, handler, code, status) => {
    upstream().use((_request, response) => void handler(response));
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model, input: "Hi", stream: true }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split("\n\n")
      .filter((block) => block.trim() !== "")
      .map((block) => JSON.parse(block.split("\n").find((line) => line.startsWith("data: "))!.slice(6)) as Record<string, any>);
    const types = events.map((event) => event.type);
    expect(types.slice(-2)).toEqual(["error", "response.failed"]);
    expect(types).not.toContain("response.completed");
    expect(events.at(-2)).toMatchObject({ code });
    expect(events.at(-1)!.response).toMatchObject({ status: "failed", error: { code: "server_error" } });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "responses", status, errorCode: code });
    expect(event.outputTokens).toBeGreaterThan(0);
  });

  it("lists input items in OpenAI's item shapes: a short-form message as a typed message with input_text, function calls with fc_ ids and status", async () => {
    const answer = await openai.responses.create({
      model: chatModel,
      input: [
        { role: "user", content: "First" },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_1", output: '{"temperature":21}' },
        { role: "assistant", content: "It is 21 degrees." },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Second" }] },
        { role: "user", content: "Third", id: "msg_mine" },
      ] as OpenAI.Responses.ResponseInput,
    });
    const items = await openai.responses.inputItems.list(answer.id, { order: "asc" });
    expect(items.data).toEqual([
      { id: expect.stringMatching(/^msg_/), type: "message", role: "user", content: [{ type: "input_text", text: "First" }] },
      { id: expect.stringMatching(/^fc_/), type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" },
      { id: expect.stringMatching(/^fco_/), type: "function_call_output", call_id: "call_1", output: '{"temperature":21}', status: "completed" },
      { id: expect.stringMatching(/^msg_/), type: "message", role: "assistant", content: [{ type: "output_text", text: "It is 21 degrees.", annotations: [] }], status: "completed" },
      { id: expect.stringMatching(/^msg_/), type: "message", role: "user", content: [{ type: "input_text", text: "Second" }] },
      { id: "msg_mine", type: "message", role: "user", content: [{ type: "input_text", text: "Third" }] },
    ]);
    expect(items.has_more).toBe(false);
    // Ids are stable: paging after one lists the rest.
    const rest = await openai.responses.inputItems.list(answer.id, { order: "asc", after: items.data[1]!.id });
    expect(rest.data.map((item) => item.id)).toEqual(items.data.slice(2).map((item) => item.id));
  });

  it("an unknown previous_response_id answers as OpenAI does: 400 previous_response_not_found", async () => {
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: chatModel, input: "Go on", previous_response_id: "resp_missing" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { message: "Previous response with id 'resp_missing' not found.", type: "invalid_request_error", param: "previous_response_id", code: "previous_response_not_found" },
      request_id: requestIdOf(response),
    });
  });

  it("native: the provider's own error event mid-stream is relayed and followed by response.failed; the partial usage is billed", async () => {
    const item = { id: "msg_native_fail", type: "message", status: "in_progress", role: "assistant", content: [] };
    const providerError = { type: "error", sequence_number: 3, code: "server_error", message: "The server had an error while processing your request.", param: null };
    responsesUpstream.use((request, response) =>
      void sendEvents(response, [
        sseFrame({ type: "response.created", sequence_number: 0, response: responsesObject({ id: "resp_native_fail", model: "gpt-4.1-mini", status: "in_progress", output: [], request: request.body as Record<string, unknown> }) }, "response.created"),
        sseFrame({ type: "response.output_item.added", sequence_number: 1, output_index: 0, item }, "response.output_item.added"),
        sseFrame({ type: "response.output_text.delta", sequence_number: 2, item_id: item.id, output_index: 0, content_index: 0, delta: "Partial", logprobs: [] }, "response.output_text.delta"),
        sseFrame(providerError, "error"),
      ]),
    );
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: nativeModel, input: "Hi", stream: true, store: false }),
    });
    expect(response.status).toBe(200);
    const blocks = (await response.text()).split("\n\n").filter((block) => block.trim() !== "");
    const events = blocks.map((block) => JSON.parse(block.split("\n").find((line) => line.startsWith("data: "))!.slice(6)) as Record<string, any>);
    expect(events.map((event) => event.type)).toEqual(["response.created", "response.output_item.added", "response.output_text.delta", "error", "response.failed"]);
    expect(blocks.at(-1)).toMatch(/^event: response.failed\n/);
    expect(events.at(-2)).toEqual(providerError);
    expect(events.at(-1)!.response).toMatchObject({ id: "resp_native_fail", status: "failed", store: false, error: { code: "server_error" } });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "responses", status: 502, errorCode: "upstream_error" });
    expect(event.outputTokens).toBeGreaterThan(0);
  });

  it("the demo connection answers offline, JSON and streamed", async () => {
    const plain = await openai.responses.create({ model: "demo/demo/decider", input: "Hi" });
    expect(plain.output_text).toMatch(/^\[demo\]/);
    const stream = openai.responses.stream({ model: "demo/demo/decider", input: "Hi" });
    const final = await stream.finalResponse();
    expect(final.output_text).toMatch(/^\[demo\]/);
  });
});

describe("POST /v1/embeddings with the openai client", () => {
  it("native: the client's default base64 encoding and an explicit float encoding, with dimensions; usage and cost recorded", async () => {
    const { data, response } = await openai.embeddings.create({ model: embeddingModel, input: ["first", "second"], dimensions: 4 }).withResponse();
    expect(data.data.map((entry) => entry.embedding.length)).toEqual([4, 4]);
    expect(data.data[1]!.embedding[0]).toBeCloseTo(1, 5);
    expect(responsesUpstream.requests.at(-1)!.body).toMatchObject({ model: "text-embedding-3-small", encoding_format: "base64", dimensions: 4 });
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "embeddings", status: 200, inputTokens: 16, outputTokens: 0, model: "openai/text-embedding-3-small" });
    expect(event.costMicros).toBeGreaterThan(0);

    const floats = await openai.embeddings.create({ model: embeddingModel, input: "one", encoding_format: "float" });
    expect(floats.data[0]!.embedding).toHaveLength(3);
  });

  it("the demo connection answers offline; models that do not embed are refused by name", async () => {
    const demo = await openai.embeddings.create({ model: "demo/demo/embed", input: "hello", dimensions: 8 });
    expect(demo.data[0]!.embedding).toHaveLength(8);
    await expect(openai.embeddings.create({ model: anthropicModel, input: "hello" })).rejects.toMatchObject({ status: 400, code: "unsupported_feature", param: "model" });
    await expect(openai.embeddings.create({ model: nativeModel, input: "hello" })).rejects.toMatchObject({ status: 400, code: "unsupported_feature" });
    await expect(openai.responses.create({ model: embeddingModel, input: "hello" })).rejects.toMatchObject({ status: 400, code: "unsupported_feature" });
  });

  it("/v1/models says which endpoints each model serves", async () => {
    const models = await openai.models.list();
    const byId = new Map(models.data.map((model) => [model.id, (model as unknown as { endpoints: string[] }).endpoints]));
    expect(byId.get(embeddingModel)).toEqual(["embeddings"]);
    expect(byId.get(nativeModel)).toEqual(["chat_completions", "messages", "responses", "decisions"]);
    expect(byId.get(anthropicModel)).toEqual(["chat_completions", "messages", "responses", "decisions"]);
    expect(byId.get("native/systemone/s1")).toEqual(["decisions"]);
  });
});
