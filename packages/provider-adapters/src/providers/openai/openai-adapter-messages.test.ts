import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { callContext, collect, connectionFor, rejectionOf, sendJson, startFakeUpstream, targetFor } from "../../../test/fake-upstream.js";
import type { FakeHandler, FakeUpstream } from "../../../test/fake-upstream.js";
import { createProviderAdapter } from "../provider-registry.js";
import { createHttpTransport } from "../../http-transport.js";
import type { HttpTransport } from "../../http-transport.js";
import type { ProviderResult } from "../../provider-adapter.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { countTokens, messages } from "../../../test/adapter-calls.js";

// The first local count builds the tokenizer's rank tables (about 1 s on an idle 2-core
// machine, several seconds while other suites run beside it): allow for that, not for a hang.
const tokenizerLoadTimeoutMs = 30_000;

// Anthropic Messages format in, OpenAI-compatible chat completions upstream (translated direction).

let upstream: FakeUpstream | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await upstream?.close();
  transport = undefined;
  upstream = undefined;
});

/** The Anthropic-format caller of these translated streams. */
const messagesCaller = { to: "anthropic-messages", model: "openai-test/openai/gpt-test" } as const;

async function setup(handler: FakeHandler, upstreamModel = "openai/gpt-test") {
  upstream = await startFakeUpstream(handler);
  transport = createHttpTransport();
  const connection = connectionFor("openai", `${upstream.url}/v1`);
  return { adapter: createProviderAdapter(connection, { transport }), target: targetFor(connection, upstreamModel), upstream };
}

function chunk(choices: unknown[], extra: Record<string, unknown> = { usage: null }) {
  return { id: "chatcmpl-s1", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-test", system_fingerprint: "fp_1", choices, ...extra };
}

function delta(content: Record<string, unknown>, finishReason: string | null = null) {
  return chunk([{ index: 0, delta: content, logprobs: null, finish_reason: finishReason }]);
}

const usageChunk = chunk([], {
  usage: { prompt_tokens: 130, completion_tokens: 9, total_tokens: 139, prompt_tokens_details: { cached_tokens: 100 } },
});

/** Writes OpenAI SSE chunks exactly as the chat completions API frames them (`data:` lines only). */
function writeChunks(response: ServerResponse, chunks: unknown[]): void {
  for (const item of chunks) response.write(`data: ${typeof item === "string" ? item : JSON.stringify(item)}\n\n`);
}

function startStream(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "text/event-stream" });
}

const textChunks = [
  delta({ role: "assistant", content: "", refusal: null }),
  delta({ content: "Hel" }),
  delta({ content: "lo" }),
  delta({}, "stop"),
  usageChunk,
  "[DONE]",
];

function asJson(result: ProviderResult) {
  if (result.kind !== "json") throw new Error("expected JSON");
  return result;
}

function asStream(result: ProviderResult) {
  if (result.kind !== "stream") throw new Error("expected a stream");
  return result;
}

function parsed(events: SseEvent[]): any[] {
  return events.map((event) => {
    const data = JSON.parse(event.data);
    expect(data.type).toBe(event.event);
    return data;
  });
}

const messagesBody = {
  model: "openai-test/openai/gpt-test",
  max_tokens: 100,
  system: [{ type: "text", text: "Be brief", cache_control: { type: "ephemeral" } }],
  messages: [{ role: "user", content: "Hi" }],
};

describe("openai adapter: Anthropic messages, translated (JSON)", () => {
  it("sends a chat completions request and answers an Anthropic message with cache usage", async () => {
    const { adapter, target, upstream } = await setup((_request, response) =>
      sendJson(response, 200, {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1_700_000_000,
        model: "gpt-test",
        choices: [{ index: 0, message: { role: "assistant", content: "Hello!", refusal: null }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: 120, completion_tokens: 7, total_tokens: 127, prompt_tokens_details: { cached_tokens: 100 } },
      }),
    );
    const result = await messages(adapter, 
      { ...messagesBody, stop_sequences: ["END"], metadata: { user_id: "user-7" }, temperature: 0.5 },
      target,
      callContext(),
      { "anthropic-version": "2023-06-01" },
    );
    const received = upstream.requests[0]!;
    expect(received.path).toBe("/v1/chat/completions");
    expect(received.headers.authorization).toBe("Bearer sk-test-secret-credential-123456");
    expect(received.headers["x-api-key"]).toBeUndefined();
    expect(received.headers["anthropic-version"]).toBeUndefined();
    expect(received.body).toEqual({
      model: "openai/gpt-test",
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: "Hi" },
      ],
      max_completion_tokens: 100,
      stop: ["END"],
      user: "user-7",
      temperature: 0.5,
    });
    expect(result).toMatchObject({
      kind: "json",
      status: 200,
      body: {
        id: "chatcmpl-1",
        type: "message",
        role: "assistant",
        model: target.qualifiedModel,
        content: [{ type: "text", text: "Hello!" }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 7 },
      },
    });
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("translates tools and parallel tool calls (one without arguments) both ways", async () => {
    const { adapter, target, upstream } = await setup((_request, response) =>
      sendJson(response, 200, {
        id: "chatcmpl-2",
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
                { id: "call_2", type: "function", function: { name: "get_time", arguments: "" } },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
      }),
    );
    const schema = { type: "object", properties: { city: { type: "string" } } };
    const result = await messages(adapter, 
      {
        model: "x",
        max_tokens: 50,
        messages: [{ role: "user", content: "Weather and time?" }],
        tools: [
          { name: "get_weather", description: "Weather", input_schema: schema, cache_control: { type: "ephemeral" } },
          { name: "get_time", input_schema: { type: "object" } },
        ],
        tool_choice: { type: "any", disable_parallel_tool_use: true },
      },
      target,
      callContext(),
    );
    expect(upstream.requests[0]!.body).toMatchObject({
      tools: [
        { type: "function", function: { name: "get_weather", description: "Weather", parameters: schema } },
        { type: "function", function: { name: "get_time", parameters: { type: "object" } } },
      ],
      tool_choice: "required",
      parallel_tool_calls: false,
    });
    expect(asJson(result).body).toMatchObject({
      stop_reason: "tool_use",
      content: [
        { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
        { type: "tool_use", id: "call_2", name: "get_time", input: {} },
      ],
    });
  });

  it("refuses a field it cannot translate before calling upstream", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 500, {}));
    const error = await rejectionOf(messages(adapter, { ...messagesBody, top_k: 5 }, target, callContext()));
    expect(error).toMatchObject({ code: "unsupported_feature", param: "top_k", retryable: true, details: { provider: "openai-test" } });
    const missing = await rejectionOf(messages(adapter, { model: "x", messages: [] }, target, callContext()));
    expect(missing).toMatchObject({ code: "invalid_request", param: "max_tokens", retryable: false });
    expect(upstream.requests).toHaveLength(0);
  });

  it("an upstream error before any output is thrown as a GatewayError (JSON and stream)", async () => {
    const { adapter, target } = await setup((_request, response) => sendJson(response, 500, { error: { message: "boom" } }));
    for (const stream of [false, true]) {
      expect(await rejectionOf(messages(adapter, { ...messagesBody, stream }, target, callContext()))).toMatchObject({
        code: "upstream_error",
        status: 502,
        retryable: true,
      });
    }
  });
});

describe("openai adapter: Anthropic messages, translated (stream)", () => {
  it("forces include_usage upstream and streams Anthropic events with cumulative usage", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => {
      startStream(response);
      writeChunks(response, textChunks);
      response.end();
    });
    const result = asStream(await messages(adapter, { ...messagesBody, stream: true }, target, callContext()));
    const received = upstream.requests[0]!;
    expect(received.headers.accept).toBe("text/event-stream");
    expect(received.body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_completion_tokens: 100 });

    const events = parsed(await collect(renderStreamResult(result, messagesCaller).events));
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[0].message).toMatchObject({ id: "chatcmpl-s1", role: "assistant", model: target.qualifiedModel, content: [] });
    expect(events.filter((event) => event.type === "content_block_delta").map((event) => event.delta)).toEqual([
      { type: "text_delta", text: "Hel" },
      { type: "text_delta", text: "lo" },
    ]);
    expect(events[5]).toMatchObject({
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { input_tokens: 30, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 9 },
    });
    expect(renderStreamResult(result, messagesCaller).usage()).toEqual({ inputTokens: 30, outputTokens: 9, cacheReadTokens: 100, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("streams parallel tool calls as tool_use blocks, one without argument fragments", async () => {
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeChunks(response, [
        delta({ role: "assistant", content: null }),
        delta({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '{"city"' } }] }),
        delta({ tool_calls: [{ index: 0, function: { arguments: ':"Paris"}' } }] }),
        delta({ tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name: "get_time", arguments: "" } }] }),
        delta({}, "tool_calls"),
        usageChunk,
        "[DONE]",
      ]);
      response.end();
    });
    const result = asStream(await messages(adapter, { ...messagesBody, stream: true }, target, callContext()));
    const events = parsed(await collect(renderStreamResult(result, messagesCaller).events));
    const starts = events.filter((event) => event.type === "content_block_start");
    expect(starts).toEqual([
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "call_1", name: "get_weather", input: {} } },
      { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "call_2", name: "get_time", input: {} } },
    ]);
    const argumentsByBlock: Record<number, string> = {};
    for (const event of events.filter((item) => item.type === "content_block_delta")) {
      expect(event.delta.type).toBe("input_json_delta");
      argumentsByBlock[event.index] = (argumentsByBlock[event.index] ?? "") + event.delta.partial_json;
    }
    expect(argumentsByBlock).toEqual({ 0: '{"city":"Paris"}' });
    // Each block stops once, block 0 before block 1 starts (sequential, as Anthropic streams them).
    const order = events.map((event) => `${event.type}${event.index ?? ""}`);
    expect(order.indexOf("content_block_stop0")).toBeLessThan(order.indexOf("content_block_start1"));
    expect(order.filter((item) => item.startsWith("content_block_stop"))).toEqual(["content_block_stop0", "content_block_stop1"]);
    expect(events.at(-2)).toMatchObject({ type: "message_delta", delta: { stop_reason: "tool_use" } });
    expect(events.at(-1)).toEqual({ type: "message_stop" });
  });

  it("an in-stream error chunk ends the output with event: error and no message_stop", async () => {
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeChunks(response, [
        delta({ role: "assistant", content: "" }),
        delta({ content: "Partial" }),
        { error: { message: "The server had an error while processing your request.", type: "server_error", code: null } },
      ]);
      response.end();
    });
    const result = asStream(await messages(adapter, { ...messagesBody, stream: true }, target, callContext()));
    const events = await collect(renderStreamResult(result, messagesCaller).events);
    expect(events.some((event) => event.event === "message_stop")).toBe(false);
    expect(events.at(-1)!.event).toBe("error");
    const body = JSON.parse(events.at(-1)!.data);
    expect(body).toMatchObject({ type: "error", error: { type: "api_error" }, request_id: "req_test" });
    expect(body.error.message).toContain("The server had an error");
  });

  it("yields Anthropic events as each upstream chunk arrives, before the upstream stream ends", async () => {
    let finish: (() => void) | undefined;
    const { adapter, target } = await setup((_request, response) => {
      startStream(response);
      writeChunks(response, textChunks.slice(0, 2));
      finish = () => {
        writeChunks(response, textChunks.slice(2));
        response.end();
      };
    });
    const result = asStream(await messages(adapter, { ...messagesBody, stream: true }, target, callContext()));
    const iterator = renderStreamResult(result, messagesCaller).events[Symbol.asyncIterator]();
    const seen: string[] = [];
    while (!seen.includes("content_block_delta")) seen.push((await iterator.next()).value.event);
    expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta"]);
    finish!();
    const rest: SseEvent[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(rest.at(-1)!.event).toBe("message_stop");
  });

  it("a consumer that stops early closes the upstream socket; no usage was reported yet", async () => {
    const text = "Once upon a time there was a gateway.";
    const { adapter, target, upstream } = await setup((_request, response) => {
      startStream(response);
      writeChunks(response, [delta({ role: "assistant", content: "" }), delta({ content: text })]);
      // never ends on its own: OpenAI sends usage only in the final chunk
    });
    const result = asStream(await messages(adapter, { ...messagesBody, stream: true }, target, callContext()));
    const closed = upstream.requests[0]!.socketClosed;
    for await (const event of renderStreamResult(result, messagesCaller).events) {
      if (event.event === "content_block_delta") break;
    }
    await closed;
    // OpenAI reports usage only in the final chunk: none arrived (the pipeline bills an estimate).
    expect(renderStreamResult(result, messagesCaller).usage()).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("a caller abort mid-stream rejects with client_cancelled and closes the upstream socket", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => {
      startStream(response);
      writeChunks(response, [delta({ role: "assistant", content: "" })]);
    });
    const controller = new AbortController();
    const result = asStream(await messages(adapter, { ...messagesBody, stream: true }, target, callContext({ signal: controller.signal })));
    const iterator = renderStreamResult(result, messagesCaller).events[Symbol.asyncIterator]();
    expect((await iterator.next()).value.event).toBe("message_start");
    const closed = upstream.requests[0]!.socketClosed;
    const pending = iterator.next();
    controller.abort();
    expect(await rejectionOf(pending)).toMatchObject({ code: "client_cancelled" });
    await closed;
  });
});

describe("openai adapter: count_tokens (Anthropic body, counted locally)", () => {
  it("counts system, messages and tools locally without calling upstream, and says whether the count is exact", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 500, {}), "openai/gpt-4o-mini");
    const plain = await countTokens(adapter, { model: "x", messages: [{ role: "user", content: "Hello there" }] }, target, callContext());
    const withSystem = await countTokens(adapter, 
      { model: "x", system: "You are a helpful assistant.", messages: [{ role: "user", content: "Hello there" }] },
      target,
      callContext(),
    );
    const withTools = await countTokens(adapter, 
      {
        model: "x",
        system: "You are a helpful assistant.",
        messages: [{ role: "user", content: "Hello there" }],
        tools: [{ name: "get_weather", description: "Weather of a city", input_schema: { type: "object", properties: { city: { type: "string" } } } }],
      },
      target,
      callContext(),
    );
    expect(plain).toMatchObject({ local: true, exact: true });
    expect(withSystem.inputTokens).toBeGreaterThan(plain.inputTokens);
    expect(withTools).toMatchObject({ local: true, exact: false });
    expect(withTools.inputTokens).toBeGreaterThan(withSystem.inputTokens);
    expect(upstream.requests).toHaveLength(0);
  }, tokenizerLoadTimeoutMs);

  it("refuses a count_tokens body the messages route would refuse", async () => {
    const { adapter, target } = await setup((_request, response) => sendJson(response, 500, {}));
    const error = await rejectionOf(countTokens(adapter, { model: "x", messages: [], thinking: { type: "enabled", budget_tokens: 1024 } }, target, callContext()));
    expect(error).toMatchObject({ code: "unsupported_feature", param: "thinking", details: { provider: "openai-test" } });
  });
});
