import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { callContext, collect, connectionFor, rejectionOf, sendJson, startFakeUpstream, targetFor } from "../../../test/fake-upstream.js";
import type { FakeHandler, FakeUpstream } from "../../../test/fake-upstream.js";
import { anthropicDefaultMaxTokens } from "./provider.js";
import { createProviderAdapter } from "../provider-registry.js";
import { createHttpTransport } from "../../http-transport.js";
import type { HttpTransport } from "../../http-transport.js";
import type { AdapterConnection, ProviderResult } from "../../provider-adapter.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { chatCompletions } from "../../../test/adapter-calls.js";

// OpenAI chat completions format in, Anthropic Messages API upstream (translated direction).

let upstream: FakeUpstream | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await upstream?.close();
  transport = undefined;
  upstream = undefined;
});

/** The OpenAI-format caller of these translated streams. */
const chatCaller = { to: "openai-chat", model: "anthropic-test/anthropic/claude-test" } as const;

async function setup(handler: FakeHandler, extra: Partial<AdapterConnection> = {}) {
  upstream = await startFakeUpstream(handler);
  transport = createHttpTransport();
  const connection = connectionFor("anthropic", upstream.url, extra);
  return { adapter: createProviderAdapter(connection, { transport }), target: targetFor(connection, "anthropic/claude-test"), upstream };
}

/** Writes Anthropic SSE events exactly as the Messages API frames them (`event:` line + `data:` line). */
function writeEvents(response: ServerResponse, events: Record<string, unknown>[]): void {
  for (const event of events) response.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

function startStream(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
}

const messageStart = {
  type: "message_start",
  message: {
    id: "msg_stream_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, cache_creation_input_tokens: 10, cache_read_input_tokens: 100, output_tokens: 1 },
  },
};

const textStreamEvents = [
  messageStart,
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "ping" },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 15 } },
  { type: "message_stop" },
];

function chunksOf(events: SseEvent[]): any[] {
  expect(events.at(-1)).toEqual({ data: "[DONE]" });
  return events.slice(0, -1).map((event) => {
    expect(event.event).toBeUndefined();
    return JSON.parse(event.data);
  });
}

function asJson(result: ProviderResult) {
  if (result.kind !== "json") throw new Error("expected JSON");
  return result;
}

function asStream(result: ProviderResult) {
  if (result.kind !== "stream") throw new Error("expected a stream");
  return result;
}

describe("anthropic adapter: OpenAI chat completions, translated (JSON)", () => {
  it("sends an Anthropic request (default max_tokens, system, tools with cache_control) and answers a chat completion with cache usage", async () => {
    const { adapter, target, upstream } = await setup((_request, response) =>
      sendJson(response, 200, {
        id: "msg_01",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [{ type: "text", text: "Hello" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 5, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000 },
      }),
    );
    const body = {
      model: "anthropic-test/anthropic/claude-test",
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: [{ type: "text", text: "Weather in Paris?", cache_control: { type: "ephemeral" } }] },
      ],
      tools: [
        {
          type: "function",
          function: { name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
          cache_control: { type: "ephemeral", ttl: "1h" },
        },
      ],
      tool_choice: "auto",
      parallel_tool_calls: false,
      temperature: 0.2,
      stop: "END",
      user: "user-7",
    };
    const result = await chatCompletions(adapter, body, target, callContext());

    const received = upstream.requests[0]!;
    expect(received.path).toBe("/v1/messages");
    expect(received.headers["x-api-key"]).toBe("sk-test-secret-credential-123456");
    expect(received.headers["anthropic-version"]).toBe("2023-06-01");
    expect(received.headers.authorization).toBeUndefined();
    expect(received.headers["x-extra-header"]).toBe("extra-value");
    expect(received.body).toEqual({
      model: "anthropic/claude-test",
      max_tokens: anthropicDefaultMaxTokens,
      system: "Be brief",
      messages: [{ role: "user", content: [{ type: "text", text: "Weather in Paris?", cache_control: { type: "ephemeral" } }] }],
      tools: [
        {
          name: "get_weather",
          description: "Weather",
          input_schema: { type: "object", properties: { city: { type: "string" } } },
          cache_control: { type: "ephemeral", ttl: "1h" },
        },
      ],
      tool_choice: { type: "auto", disable_parallel_tool_use: true },
      temperature: 0.2,
      stop_sequences: ["END"],
      metadata: { user_id: "user-7" },
    });
    expect(anthropicDefaultMaxTokens).toBe(4096);

    expect(result.kind).toBe("json");
    expect(result.status).toBe(200);
    expect(asJson(result).body).toMatchObject({
      id: "msg_01",
      object: "chat.completion",
      model: target.qualifiedModel,
      choices: [{ index: 0, message: { role: "assistant", content: "Hello", refusal: null }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: 2312,
        completion_tokens: 5,
        total_tokens: 2317,
        prompt_tokens_details: { cached_tokens: 2000, cache_write_tokens: 300 },
      },
    });
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 5, cacheReadTokens: 2000, cacheWriteTokens: 300, reasoningTokens: 0 });
  });

  it("uses the connection's defaultMaxTokens, and the request's max_completion_tokens over it", async () => {
    const answer = { id: "m", type: "message", role: "assistant", content: [], stop_reason: "max_tokens", usage: { input_tokens: 1, output_tokens: 1 } };
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, answer), { defaultMaxTokens: 1000 });
    const messages = [{ role: "user", content: "Hi" }];
    const first = await chatCompletions(adapter, { messages }, target, callContext());
    await chatCompletions(adapter, { messages, max_tokens: 70 }, target, callContext());
    await chatCompletions(adapter, { messages, max_tokens: 70, max_completion_tokens: 50 }, target, callContext());
    expect(upstream.requests.map((request) => request.body.max_tokens)).toEqual([1000, 70, 50]);
    expect((asJson(first).body as any).choices[0].finish_reason).toBe("length");
  });

  it("answers parallel tool calls (one without input) as tool_calls with finish_reason tool_calls", async () => {
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 200, {
        id: "msg_02",
        type: "message",
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_2", name: "get_time", input: {} },
        ],
        stop_reason: "tool_use",
        usage: { input_tokens: 40, output_tokens: 30 },
      }),
    );
    const result = await chatCompletions(adapter, { messages: [{ role: "user", content: "Weather and time?" }] }, target, callContext());
    expect((asJson(result).body as any).choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        content: null,
        tool_calls: [
          { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "toolu_2", type: "function", function: { name: "get_time", arguments: "{}" } },
        ],
      },
    });
  });

  it("response_format json_schema goes upstream as a forced tool and comes back as JSON content", async () => {
    const { adapter, target, upstream } = await setup((_request, response) =>
      sendJson(response, 200, {
        id: "msg_03",
        type: "message",
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_9", name: "answer", input: { city: "Paris" } }],
        stop_reason: "tool_use",
        usage: { input_tokens: 4, output_tokens: 6 },
      }),
    );
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const result = await chatCompletions(adapter, 
      { messages: [{ role: "user", content: "City?" }], response_format: { type: "json_schema", json_schema: { name: "answer", schema } } },
      target,
      callContext(),
    );
    expect(upstream.requests[0]!.body.tools).toEqual([expect.objectContaining({ name: "answer", input_schema: schema })]);
    expect(upstream.requests[0]!.body.tool_choice).toEqual({ type: "tool", name: "answer" });
    expect((asJson(result).body as any).choices[0]).toMatchObject({ finish_reason: "stop", message: { content: '{"city":"Paris"}' } });
  });

  it("refuses a field it cannot translate before calling upstream (unsupported_feature naming it, retryable for fallback)", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 500, {}));
    const error = await rejectionOf(chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], seed: 3 }, target, callContext()));
    expect(error).toMatchObject({ code: "unsupported_feature", status: 400, param: "seed", retryable: true, details: { provider: "anthropic-test" } });
    const malformed = await rejectionOf(chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], max_tokens: 0 }, target, callContext()));
    expect(malformed).toMatchObject({ code: "invalid_request", param: "max_tokens", retryable: false });
    expect(upstream.requests).toHaveLength(0);
  });

  it("maps an upstream error answer before any output to a thrown GatewayError", async () => {
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 429, { type: "error", error: { type: "rate_limit_error", message: "Too many requests" } }, { "retry-after": "12" }),
    );
    for (const stream of [false, true]) {
      const error = await rejectionOf(chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream }, target, callContext()));
      expect(error).toMatchObject({ code: "upstream_rate_limited", retryAfter: "12", retryable: true });
    }
  });
});

describe("anthropic adapter: OpenAI chat completions, translated (stream)", () => {
  it("streams text as chat chunks (ping ignored), with the usage chunk the caller asked for, cache tokens kept", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, textStreamEvents);
      response.end();
    });
    const result = asStream(
      await chatCompletions(adapter, 
        { messages: [{ role: "user", content: "Hi" }], stream: true, stream_options: { include_usage: true } },
        target,
        callContext(),
      ),
    );
    const received = upstream.requests[0]!;
    expect(received.headers.accept).toBe("text/event-stream");
    expect(received.body).toEqual({ model: "anthropic/claude-test", max_tokens: 4096, messages: [{ role: "user", content: "Hi" }], stream: true });

    const chunks = chunksOf(await collect(renderStreamResult(result, { ...chatCaller, includeUsage: true }).events));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: "assistant", content: "", refusal: null },
      { content: "Hel" },
      { content: "lo" },
      {},
      undefined,
    ]);
    expect(chunks.at(-2).choices[0].finish_reason).toBe("stop");
    for (const chunk of chunks.slice(0, -1)) expect(chunk).toMatchObject({ id: "msg_stream_1", object: "chat.completion.chunk", model: target.qualifiedModel, usage: null });
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 135, completion_tokens: 15, total_tokens: 150, prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 10 } },
    });
    expect(renderStreamResult(result, chatCaller).usage()).toEqual({ inputTokens: 25, outputTokens: 15, cacheReadTokens: 100, cacheWriteTokens: 10, reasoningTokens: 0 });
  });

  it("without include_usage sends no usage chunk but still reports usage for billing", async () => {
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, textStreamEvents);
      response.end();
    });
    const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext()));
    const chunks = chunksOf(await collect(renderStreamResult(result, chatCaller).events));
    expect(chunks.every((chunk) => chunk.choices.length === 1 && !("usage" in chunk))).toBe(true);
    expect(renderStreamResult(result, chatCaller).usage()).toEqual({ inputTokens: 25, outputTokens: 15, cacheReadTokens: 100, cacheWriteTokens: 10, reasoningTokens: 0 });
  });

  it("streams parallel tool calls with tool-call indexes, and '{}' for a call without argument fragments", async () => {
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, [
        messageStart,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking." } },
        { type: "content_block_stop", index: 0 },
        { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_a", name: "get_weather", input: {} } },
        { type: "ping" },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: "" } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"city": ' } },
        { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '"Paris"}' } },
        { type: "content_block_stop", index: 1 },
        { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_b", name: "get_time", input: {} } },
        { type: "content_block_stop", index: 2 },
        { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 40 } },
        { type: "message_stop" },
      ]);
      response.end();
    });
    const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Both?" }], stream: true }, target, callContext()));
    const chunks = chunksOf(await collect(renderStreamResult(result, chatCaller).events));
    const calls: Record<number, { id?: string; name?: string; arguments: string }> = {};
    for (const chunk of chunks) {
      for (const fragment of chunk.choices[0]?.delta?.tool_calls ?? []) {
        const call = (calls[fragment.index] ??= { arguments: "" });
        if (fragment.id !== undefined) {
          expect(call.id).toBeUndefined();
          call.id = fragment.id;
          call.name = fragment.function.name;
          expect(fragment.type).toBe("function");
        }
        call.arguments += fragment.function.arguments;
      }
    }
    expect(calls).toEqual({
      0: { id: "toolu_a", name: "get_weather", arguments: '{"city": "Paris"}' },
      1: { id: "toolu_b", name: "get_time", arguments: "{}" },
    });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content).filter(Boolean)).toEqual(["Checking."]);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("tool_calls");
    expect(renderStreamResult(result, chatCaller).usage()).toEqual({ inputTokens: 25, outputTokens: 40, cacheReadTokens: 100, cacheWriteTokens: 10, reasoningTokens: 0 });
  });

  it("an in-stream error event ends the output with a final data: {error} and no [DONE]", async () => {
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, [
        messageStart,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Partial answer" } },
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      ]);
      response.end();
    });
    const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext()));
    const events = await collect(renderStreamResult(result, chatCaller).events);
    expect(events.some((event) => event.data === "[DONE]")).toBe(false);
    const last = JSON.parse(events.at(-1)!.data);
    expect(last).toMatchObject({ error: { code: "service_unavailable", type: "service_unavailable_error" }, request_id: "req_test" });
    expect(last.error.message).toContain("Overloaded");
    expect(JSON.parse(events.at(-2)!.data).choices[0].delta.content).toBe("Partial answer");
    // What the provider reported before it failed (message_start); the pipeline bills at least the streamed text.
    expect(renderStreamResult(result, chatCaller).usage()).toEqual({ inputTokens: 25, outputTokens: 1, cacheReadTokens: 100, cacheWriteTokens: 10, reasoningTokens: 0 });
  });

  it("a connection that drops mid-stream ends with an error chunk, not a thrown error", async () => {
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, [messageStart]);
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext()));
    const events = await collect(renderStreamResult(result, chatCaller).events);
    expect(JSON.parse(events[0]!.data).choices[0].delta.role).toBe("assistant");
    expect(JSON.parse(events.at(-1)!.data).error.code).toBe("upstream_error");
  });

  it("yields each chunk as its upstream event arrives, before the upstream stream ends", async () => {
    let finish: (() => void) | undefined;
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, textStreamEvents.slice(0, 4));
      finish = () => {
        writeEvents(response, textStreamEvents.slice(4));
        response.end();
      };
    });
    const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext()));
    const iterator = renderStreamResult(result, chatCaller).events[Symbol.asyncIterator]();
    expect(JSON.parse((await iterator.next()).value.data).choices[0].delta.role).toBe("assistant");
    expect(JSON.parse((await iterator.next()).value.data).choices[0].delta.content).toBe("Hel");
    expect(finish).toBeDefined();
    finish!();
    const rest: SseEvent[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(rest.at(-1)).toEqual({ data: "[DONE]" });
  });

  it("a consumer that stops early closes the upstream socket; the usage parts say what the provider reported", async () => {
    const longText = "The quick brown fox jumps over the lazy dog.";
    const { adapter, target, upstream } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, [
        messageStart,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: longText } },
      ]);
      // never ends on its own
    });
    const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext()));
    const closed = upstream.requests[0]!.socketClosed;
    for await (const event of renderStreamResult(result, chatCaller).events) {
      if (JSON.parse(event.data).choices[0]?.delta?.content === longText) break;
    }
    await closed;
    expect(renderStreamResult(result, chatCaller).usage()).toEqual({ inputTokens: 25, outputTokens: 1, cacheReadTokens: 100, cacheWriteTokens: 10, reasoningTokens: 0 });
  });

  it("a caller abort mid-stream rejects with client_cancelled (no error chunk) and closes the upstream socket", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => {
      startStream(response);
      writeEvents(response, [messageStart]);
    });
    const controller = new AbortController();
    const result = asStream(
      await chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext({ signal: controller.signal })),
    );
    const iterator = renderStreamResult(result, chatCaller).events[Symbol.asyncIterator]();
    await iterator.next();
    const closed = upstream.requests[0]!.socketClosed;
    const pending = iterator.next();
    controller.abort();
    expect(await rejectionOf(pending)).toMatchObject({ code: "client_cancelled" });
    await closed;
    expect(renderStreamResult(result, chatCaller).usage()).toMatchObject({ inputTokens: 25, cacheReadTokens: 100, cacheWriteTokens: 10, reasoningTokens: 0 });
  });
});
