import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { request as httpRequest } from "node:http";
import Anthropic from "@anthropic-ai/sdk";

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
  sendEvents,
  sendJson,
  startWireProvider,
} from "./support/wire-format-providers.js";

// The first local count builds the tokenizer's rank tables (about 1 s on an idle 2-core
// machine, several seconds while other suites run beside it): allow for that, not for a hang.
const tokenizerLoadTimeoutMs = 30_000;

const openAiModel = "openai-mock/openai/gpt-4o-mini";
const anthropicModel = "anthropic-mock/anthropic/claude-sonnet-4";
const weatherTool = {
  type: "function" as const,
  function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};
const anthropicWeatherTool = { name: "get_weather", description: "Weather of a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] } };

let openaiUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  openaiUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  const snapshot: ControlPlaneSnapshot = createGatewayTestSnapshot(
    { openai: openaiUpstream.url, anthropic: anthropicUpstream.url },
    {
      routes: [
        {
          id: "route_chat_fallback",
          organizationId: "org_1",
          alias: "chat-fallback",
          strategy: "priority",
          targets: [
            { model: openAiModel, weight: 1 },
            { model: anthropicModel, weight: 1 },
          ],
          affinity: { enabled: false, ttlSeconds: 60 },
          retry: { maxAttempts: 1 },
        },
      ],
      policies: [
        {
          id: "pol_output_pii",
          organizationId: "org_1",
          scope: "project",
          scopeId: "prj_other",
          allow: [],
          deny: [],
          guardrails: { rules: [{ type: "pii", name: "pii-out", action: "redact", detectors: ["email"], appliesTo: "output" }] },
        },
      ],
    },
  );
  gateway = await startTestGateway(snapshot);
  // The official clients, unchanged except for their base URL and key.
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: testApiKey });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: testApiKey });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close()]);
});

beforeEach(() => {
  openaiUpstream.use(null);
  anthropicUpstream.use(null);
});

/** A request body with fields the SDK's types do not list (sent as they are, like any client would). */
function withExtraFields(body: Anthropic.MessageCreateParamsNonStreaming, extra: Record<string, unknown>): Anthropic.MessageCreateParamsNonStreaming {
  return { ...body, ...extra } as Anthropic.MessageCreateParamsNonStreaming;
}

const requestIdOf = (response: Response) => response.headers.get("x-request-id") ?? "";

describe("POST /v1/chat/completions with the openai client", () => {
  it("native: a plain chat passes unknown fields through and records usage with cached tokens", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: openAiModel, messages: [{ role: "user", content: "Hi" }], seed: 7 })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("Hello from the OpenAI mock.");
    const upstream = openaiUpstream.requests.at(-1)!;
    expect(upstream.body).toMatchObject({ model: "gpt-4o-mini", seed: 7, messages: [{ role: "user", content: "Hi" }] });
    expect(upstream.headers.authorization).toBe("Bearer sk-upstream-secret-openai");
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({
      endpoint: "chat_completions",
      status: 200,
      provider: "openai-mock",
      model: "openai/gpt-4o-mini",
      requestedModel: openAiModel,
      inputTokens: 20,
      cacheReadTokens: 10,
      outputTokens: 9,
      apiKeyId: "key_main",
    });
    expect(event.costMicros).toBeGreaterThan(0);
    expect(event.content).toMatchObject({ request: { model: openAiModel }, response: { object: "chat.completion" } });
  });

  it("native: the provider's JSON bytes reach the caller unchanged; other spellings of the path still route", async () => {
    // Pretty-printed, a number beyond double precision: re-serialising would change both.
    const upstreamText = `{\n  "id": "chatcmpl-raw",\n  "object": "chat.completion",\n  "created": 1,\n  "model": "gpt-4o-mini",\n  "seed_echo": 12345678901234567890,\n  "choices": [{"index": 0, "message": {"role": "assistant", "content": "raw"}, "finish_reason": "stop"}],\n  "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}\n}`;
    openaiUpstream.use((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(upstreamText) });
      response.end(upstreamText);
    });
    const body = JSON.stringify({ model: openAiModel, messages: [{ role: "user", content: "Hi" }] });
    const headers = { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" };
    const exact = await fetch(`${gateway.url}/v1/chat/completions`, { method: "POST", headers, body });
    expect(exact.status).toBe(200);
    expect(exact.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await exact.text()).toBe(upstreamText);
    const event = await gateway.eventFor(requestIdOf(exact));
    expect(event).toMatchObject({ status: 200, inputTokens: 3, outputTokens: 1 });
    // Not the exact path the fast dispatch matches: Express's router serves it the same way.
    const withQuery = await fetch(`${gateway.url}/v1/chat/completions?source=test`, { method: "POST", headers, body });
    expect(withQuery.status).toBe(200);
    expect(withQuery.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await withQuery.text()).toBe(upstreamText);
  });

  it("native: streams chunks as SSE, with the usage chunk when asked for", async () => {
    const { data: stream, response } = await openai.chat.completions
      .create({ model: openAiModel, messages: [{ role: "user", content: "Hi" }], stream: true, stream_options: { include_usage: true } })
      .withResponse();
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    let text = "";
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Hello from the OpenAI mock.");
    expect(usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 10 } });
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ status: 200, inputTokens: 20, cacheReadTokens: 10, outputTokens: 9 });
    expect(event.timeToFirstByteMs).not.toBeNull();
    expect(event.content).toMatchObject({ response: { text: "Hello from the OpenAI mock." } });
  });

  it("native: parallel tool calls, plain and streamed (fragments keep their index)", async () => {
    const plain = await openai.chat.completions.create({ model: openAiModel, messages: [{ role: "user", content: "Weather?" }], tools: [weatherTool] });
    expect(plain.choices[0]?.finish_reason).toBe("tool_calls");
    expect(plain.choices[0]?.message.tool_calls?.map((call) => call.id)).toEqual(["call_weather_paris", "call_weather_rome"]);

    const stream = await openai.chat.completions.create({ model: openAiModel, messages: [{ role: "user", content: "Weather?" }], tools: [weatherTool], stream: true });
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const fragment of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[fragment.index] ??= { arguments: "" };
        const call = calls[fragment.index]!;
        if (fragment.id) call.id = fragment.id;
        if (fragment.function?.name) call.name = fragment.function.name;
        call.arguments += fragment.function?.arguments ?? "";
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe("tool_calls");
    expect(calls.map((call) => [call.id, call.name, JSON.parse(call.arguments)])).toEqual([
      ["call_weather_paris", "get_weather", { city: "Paris" }],
      ["call_weather_rome", "get_weather", { city: "Rome" }],
    ]);
  });

  it("translated to Anthropic: plain chat with the default max_tokens, cache tokens kept", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: anthropicModel, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("Hello from the Anthropic mock.");
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(data.usage).toMatchObject({ prompt_tokens: 38, completion_tokens: 15, prompt_tokens_details: { cached_tokens: 10 } });
    const upstream = anthropicUpstream.requests.at(-1)!;
    expect(upstream.path).toBe("/v1/messages");
    expect(upstream.body).toMatchObject({ model: "claude-sonnet-4-20250514", max_tokens: 4096, system: "Be brief." });
    expect(upstream.headers["x-api-key"]).toBe("sk-ant-upstream-secret");
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ provider: "anthropic-mock", inputTokens: 25, cacheReadTokens: 10, cacheWriteTokens: 3, outputTokens: 15 });
  });

  it("translated to Anthropic: a stream with ping events, and a tool-calling conversation", async () => {
    const stream = await openai.chat.completions.create({
      model: anthropicModel,
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Hello from the Anthropic mock.");
    expect(usage).toMatchObject({ prompt_tokens: 38, completion_tokens: 15, prompt_tokens_details: { cached_tokens: 10 } });

    const tools = await openai.chat.completions.create({
      model: anthropicModel,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weatherTool],
      stream: true,
    });
    const calls: { id?: string; arguments: string }[] = [];
    let finish: string | null = null;
    for await (const chunk of tools) {
      for (const fragment of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[fragment.index] ??= { arguments: "" };
        if (fragment.id) calls[fragment.index]!.id = fragment.id;
        calls[fragment.index]!.arguments += fragment.function?.arguments ?? "";
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe("tool_calls");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.id).toBe("toolu_paris");
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ city: "Paris" });

    const followUp = await openai.chat.completions.create({
      model: anthropicModel,
      tools: [weatherTool],
      messages: [
        { role: "user", content: "Weather in Paris?" },
        { role: "assistant", content: null, tool_calls: [{ id: "toolu_paris", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
        { role: "tool", tool_call_id: "toolu_paris", content: "Sunny, 21 C" },
      ],
    });
    expect(followUp.choices[0]?.message.content).toBe("Hello from the Anthropic mock.");
    const sent = anthropicUpstream.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(sent.messages[1]).toMatchObject({ role: "assistant", content: [{ type: "tool_use", id: "toolu_paris", input: { city: "Paris" } }] });
    expect(sent.messages[2]).toMatchObject({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_paris", content: "Sunny, 21 C" }] });
  });

  it("translated: an in-stream Anthropic error arrives as the final error chunk and is recorded", async () => {
    anthropicUpstream.use((request, response) => void sendEvents(response, anthropicFailingStream(request.body.model)));
    const { data: stream, response } = await openai.chat.completions
      .create({ model: anthropicModel, messages: [{ role: "user", content: "Hi" }], stream: true })
      .withResponse();
    let text = "";
    const failure = await (async () => {
      try {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      } catch (error) {
        return error as InstanceType<typeof OpenAI.APIError>;
      }
      return null;
    })();
    expect(text).toBe("Partial");
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure?.message).toMatch(/Overloaded/);
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ status: 503, errorCode: "service_unavailable", inputTokens: 20 });
    expect(event.outputTokens).toBeGreaterThanOrEqual(1);
  });

  it("a field the translation cannot represent is a 400 naming it (never dropped)", async () => {
    const error = await openai.chat.completions
      .create({ model: anthropicModel, messages: [{ role: "user", content: "Hi" }], logprobs: true })
      .catch((caught: unknown) => caught as InstanceType<typeof OpenAI.APIError>);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "unsupported_feature", param: "logprobs" });
  });

  it("falls back to the next target before the first byte of a stream", async () => {
    openaiUpstream.use((_request, response) => sendJson(response, 500, { error: { message: "boom", type: "server_error", param: null, code: null } }));
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "chat-fallback", messages: [{ role: "user", content: "Hi" }], stream: true })
      .withResponse();
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("Hello from the Anthropic mock.");
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ status: 200, routeId: "route_chat_fallback", provider: "anthropic-mock" });
  });

  it("validates the shape: messages must be an array (400 naming the field)", async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: openAiModel, messages: "hi" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toMatchObject({ code: "invalid_request", param: "messages" });
  });

  it("x-api-key is not accepted on the OpenAI route", async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "x-api-key": testApiKey, "content-type": "application/json" },
      body: JSON.stringify({ model: openAiModel, messages: [] }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).error.code).toBe("invalid_gateway_api_key");
  });
});

describe("POST /v1/messages with the @anthropic-ai/sdk client (x-api-key)", () => {
  it("native: a plain message; anthropic-version, anthropic-beta and unknown fields pass through", async () => {
    const { data, response } = await anthropic.messages
      .create(
        withExtraFields({ model: anthropicModel, max_tokens: 100, messages: [{ role: "user", content: "Hi" }] }, { top_k: 5 }),
        // The caller's anthropic-version (not the SDK's default) and anthropic-beta are forwarded.
        { headers: { "anthropic-beta": "test-beta-2025-01-01", "anthropic-version": "2023-06-01" } },
      )
      .withResponse();
    expect(data.content).toEqual([{ type: "text", text: "Hello from the Anthropic mock." }]);
    expect(data.usage).toMatchObject({ input_tokens: 25, cache_read_input_tokens: 10, cache_creation_input_tokens: 3 });
    const upstream = anthropicUpstream.requests.at(-1)!;
    expect(upstream.body).toMatchObject({ model: "claude-sonnet-4-20250514", top_k: 5, max_tokens: 100 });
    expect(upstream.headers["anthropic-version"]).toBe("2023-06-01");
    expect(upstream.headers["anthropic-beta"]).toBe("test-beta-2025-01-01");
    expect(upstream.headers["x-api-key"]).toBe("sk-ant-upstream-secret");
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "messages", status: 200, inputTokens: 25, cacheReadTokens: 10, cacheWriteTokens: 3, outputTokens: 15 });
  });

  it("native: a stream (ping events included) and a streamed tool use", async () => {
    const final = await anthropic.messages.stream({ model: anthropicModel, max_tokens: 100, messages: [{ role: "user", content: "Hi" }] }).finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "Hello from the Anthropic mock.", citations: null }].map(({ citations: _c, ...block }) => expect.objectContaining(block)));
    expect(final.usage).toMatchObject({ input_tokens: 25, output_tokens: 15, cache_read_input_tokens: 10, cache_creation_input_tokens: 3 });

    const tools = await anthropic.messages
      .stream({ model: anthropicModel, max_tokens: 100, tools: [anthropicWeatherTool], messages: [{ role: "user", content: "Weather in Paris?" }] })
      .finalMessage();
    expect(tools.stop_reason).toBe("tool_use");
    expect(tools.content[1]).toMatchObject({ type: "tool_use", id: "toolu_paris", name: "get_weather", input: { city: "Paris" } });
  });

  it("native: an in-stream error event reaches the client and the usage event", async () => {
    anthropicUpstream.use((request, response) => void sendEvents(response, anthropicFailingStream(request.body.model)));
    const stream = anthropic.messages.stream({ model: anthropicModel, max_tokens: 100, messages: [{ role: "user", content: "Hi" }] });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
    const requestId = (await stream.withResponse()).response.headers.get("x-request-id") ?? "";
    const event = await gateway.eventFor(requestId);
    expect(event).toMatchObject({ status: 503, errorCode: "service_unavailable", inputTokens: 20 });
  });

  it("translated to OpenAI: plain, streamed and tool-calling conversations", async () => {
    const plain = await anthropic.messages.create({ model: openAiModel, max_tokens: 100, system: "Be brief.", messages: [{ role: "user", content: "Hi" }] });
    expect(plain.content).toMatchObject([{ type: "text", text: "Hello from the OpenAI mock." }]);
    expect(plain.stop_reason).toBe("end_turn");
    expect(plain.usage).toMatchObject({ input_tokens: 20, cache_read_input_tokens: 10, output_tokens: 9 });
    expect(openaiUpstream.requests.at(-1)!.body).toMatchObject({
      model: "gpt-4o-mini",
      messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }],
    });

    const streamed = await anthropic.messages.stream({ model: openAiModel, max_tokens: 100, messages: [{ role: "user", content: "Hi" }] }).finalMessage();
    expect(streamed.content).toMatchObject([{ type: "text", text: "Hello from the OpenAI mock." }]);
    expect(streamed.usage).toMatchObject({ input_tokens: 20, cache_read_input_tokens: 10, output_tokens: 9 });

    const tools = await anthropic.messages
      .stream({ model: openAiModel, max_tokens: 100, tools: [anthropicWeatherTool], messages: [{ role: "user", content: "Weather?" }] })
      .finalMessage();
    expect(tools.stop_reason).toBe("tool_use");
    expect(tools.content.filter((block) => block.type === "tool_use")).toMatchObject([
      { id: "call_weather_paris", name: "get_weather", input: { city: "Paris" } },
      { id: "call_weather_rome", name: "get_weather", input: { city: "Rome" } },
    ]);
  });

  it("errors use the Anthropic error body and types", async () => {
    const notFound = await anthropic.messages
      .create({ model: "anthropic-mock/anthropic/unknown-model", max_tokens: 10, messages: [{ role: "user", content: "Hi" }] })
      .then(
        () => null,
        (caught: unknown) => caught as InstanceType<typeof Anthropic.APIError>,
      );
    expect(notFound).toBeInstanceOf(Anthropic.NotFoundError);
    expect(notFound?.error).toMatchObject({ type: "error", error: { type: "not_found_error" } });

    const badKey = new Anthropic({ baseURL: gateway.url, apiKey: "gak_not_a_known_key_000000000" });
    const unauthenticated = await badKey.messages
      .create({ model: anthropicModel, max_tokens: 10, messages: [{ role: "user", content: "Hi" }] })
      .then(
        () => null,
        (caught: unknown) => caught as InstanceType<typeof Anthropic.APIError>,
      );
    expect(unauthenticated).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(unauthenticated?.error).toMatchObject({ type: "error", error: { type: "authentication_error" } });

    const unsupported = await anthropic.messages
      .create(withExtraFields({ model: openAiModel, max_tokens: 10, messages: [{ role: "user", content: "Hi" }] }, { top_k: 5 }))
      .then(
        () => null,
        (caught: unknown) => caught as InstanceType<typeof Anthropic.APIError>,
      );
    expect(unsupported).toBeInstanceOf(Anthropic.BadRequestError);
    expect(unsupported?.error).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(JSON.stringify(unsupported?.error)).toContain("top_k");
  });

  it("count_tokens: native on Anthropic, local (and exact for gpt-4o-mini text) on OpenAI-compatible models", async () => {
    const native = await anthropic.messages.countTokens({ model: anthropicModel, messages: [{ role: "user", content: "Hello there" }] }).withResponse();
    expect(native.data.input_tokens).toBe(42);
    expect(native.response.headers.get("x-gateway-token-count")).toBe("provider");
    expect(anthropicUpstream.requests.at(-1)).toMatchObject({ path: "/v1/messages/count_tokens", body: { model: "claude-sonnet-4-20250514" } });

    const local = await anthropic.messages.countTokens({ model: openAiModel, messages: [{ role: "user", content: "Hello there" }] }).withResponse();
    expect(local.data.input_tokens).toBeGreaterThan(0);
    expect(local.response.headers.get("x-gateway-token-count")).toBe("local");
    expect(local.response.headers.get("x-gateway-token-count-accuracy")).toBe("exact");
    const event = await gateway.eventFor(local.response.headers.get("x-request-id") ?? "");
    expect(event).toMatchObject({ endpoint: "count_tokens", status: 200, provider: "openai-mock", costMicros: 0 });
  }, tokenizerLoadTimeoutMs);
});

describe("streams", () => {
  it("a client disconnect closes the upstream socket at once and records 499 with partial usage", async () => {
    openaiUpstream.use((request, response) => void sendEvents(response, openAiContentFrames(request.body.model, ["one ", "two ", "three "]), { keepOpen: true }));
    const upstreamCount = openaiUpstream.requests.length;
    const { requestId, disconnectedAt } = await new Promise<{ requestId: string; disconnectedAt: number }>((resolve, reject) => {
      const client = httpRequest(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
      });
      client.on("response", (response) => {
        let received = "";
        response.on("data", (chunk: Buffer) => {
          received += chunk.toString();
          if (received.includes("three")) {
            const disconnectedAt = performance.now();
            client.destroy();
            resolve({ requestId: String(response.headers["x-request-id"]), disconnectedAt });
          }
        });
      });
      client.on("error", (error) => {
        if (!client.destroyed) reject(error);
      });
      client.end(JSON.stringify({ model: openAiModel, messages: [{ role: "user", content: "Count slowly." }], stream: true }));
    });
    const upstream = openaiUpstream.requests[upstreamCount]!;
    await expect.poll(() => upstream.closedAt, { timeout: 2000, interval: 5 }).not.toBeNull();
    expect(upstream.finished).toBe(false);
    // The upstream never ends on its own: only the propagated abort closes it, long before any timeout.
    expect(upstream.closedAt! - disconnectedAt).toBeLessThan(1000);
    const event = await gateway.eventFor(requestId);
    expect(event).toMatchObject({ status: 499, errorCode: "client_cancelled", provider: "openai-mock" });
    expect(event.outputTokens).toBeGreaterThanOrEqual(Math.ceil("one two three ".length / 4));
    expect(event.inputTokens).toBeGreaterThan(0);
    expect(event.costMicros).toBeGreaterThan(0);
  });

  it("output guardrails redact a match split across stream deltas, keeping the SSE stream valid", async () => {
    openaiUpstream.use((request, response) =>
      void sendEvents(response, openAiContentFrames(request.body.model, ["Write to ", "jane.do", "e@examp", "le.com", " today."], { end: true })),
    );
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: otherProjectApiKey });
    const stream = await client.chat.completions.create({ model: openAiModel, messages: [{ role: "user", content: "Contact?" }], stream: true });
    const deltas: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      deltas.push(chunk.choices[0]?.delta.content ?? "");
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(deltas.join("")).toBe("Write to [REDACTED:email] today.");
    expect(deltas.join("")).not.toContain("example");
    expect(finish).toBe("stop");

    // The same rule on a non-streamed Anthropic answer.
    anthropicUpstream.use((request, response) =>
      sendJson(response, 200, {
        id: "msg_pii",
        type: "message",
        role: "assistant",
        model: request.body.model,
        content: [{ type: "text", text: "Mail jane.doe@example.com." }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 5 },
      }),
    );
    const anthropicClient = new Anthropic({ baseURL: gateway.url, apiKey: otherProjectApiKey });
    const message = await anthropicClient.messages.create({ model: anthropicModel, max_tokens: 50, messages: [{ role: "user", content: "Contact?" }] });
    expect(message.content).toMatchObject([{ type: "text", text: "Mail [REDACTED:email]." }]);
  });
});

describe("playground runner of the gateway runtime", () => {
  it("runs a streamed chat as the key picked by id and records the user on a playground usage event", async () => {
    const runner = gateway.runtime.createPlaygroundRunner();
    const result = await runner.chat({
      requestId: "req_playground_1",
      organizationId: "org_1",
      apiKeyId: "key_main",
      userId: "usr_playground",
      body: { model: openAiModel, messages: [{ role: "user", content: "Hi" }], stream: true },
      headers: {},
      signal: new AbortController().signal,
    });
    expect(result.kind).toBe("stream");
    let text = "";
    if (result.kind === "stream") {
      for await (const event of result.events) {
        if (event.data === "[DONE]") continue;
        text += JSON.parse(event.data).choices[0]?.delta.content ?? "";
      }
    }
    expect(text).toBe("Hello from the OpenAI mock.");
    const event = await gateway.eventFor("req_playground_1");
    expect(event).toMatchObject({ endpoint: "playground", userId: "usr_playground", apiKeyId: "key_main", status: 200, outputTokens: 9 });

    await expect(
      runner.chat({
        requestId: "req_playground_2",
        organizationId: "org_elsewhere",
        apiKeyId: "key_main",
        userId: "usr_playground",
        body: { model: openAiModel, messages: [{ role: "user", content: "Hi" }] },
        headers: {},
        signal: new AbortController().signal,
      }),
    ).rejects.toMatchObject({ code: "invalid_gateway_api_key" });
  });
});
