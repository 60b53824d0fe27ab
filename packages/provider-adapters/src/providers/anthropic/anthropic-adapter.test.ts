import { afterEach, describe, expect, it } from "vitest";
import { callContext, collect, connectionFor, rejectionOf, sendJson, startFakeUpstream, targetFor } from "../../../test/fake-upstream.js";
import type { FakeHandler, FakeUpstream } from "../../../test/fake-upstream.js";
import { createProviderAdapter } from "../provider-registry.js";
import { createHttpTransport } from "../../http-transport.js";
import type { HttpTransport } from "../../http-transport.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { countTokens, messages } from "../../../test/adapter-calls.js";

let upstream: FakeUpstream | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await upstream?.close();
  transport = undefined;
  upstream = undefined;
});

async function setup(handler: FakeHandler) {
  upstream = await startFakeUpstream(handler);
  transport = createHttpTransport();
  const connection = connectionFor("anthropic", upstream.url);
  return { adapter: createProviderAdapter(connection, { transport }), target: targetFor(connection, "anthropic/claude-test"), upstream };
}

const message = {
  id: "msg_01",
  type: "message",
  role: "assistant",
  model: "claude-test",
  content: [{ type: "text", text: "Hello" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 12, output_tokens: 5, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000 },
};

const sseText = [
  ["message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 25, cache_creation_input_tokens: 10, cache_read_input_tokens: 100, output_tokens: 1 } } }],
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
  ["ping", { type: "ping" }],
  ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } }],
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 15 } }],
  ["message_stop", { type: "message_stop" }],
]
  .map(([event, data]) => `event: ${event as string}\ndata: ${JSON.stringify(data)}\n\n`)
  .join("");

describe("anthropic adapter: native messages", () => {
  it("passes the body through with x-api-key, the default anthropic-version and connection headers", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, message));
    const body = {
      model: "anthropic-test/anthropic/claude-test",
      max_tokens: 100,
      system: [{ type: "text", text: "Be brief", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: "Hi" }],
      unknown_extension: true,
    };
    const result = await messages(adapter, body, target, callContext());
    const received = upstream.requests[0]!;
    expect(received.path).toBe("/v1/messages");
    expect(received.headers["x-api-key"]).toBe("sk-test-secret-credential-123456");
    expect(received.headers["anthropic-version"]).toBe("2023-06-01");
    expect(received.headers["anthropic-beta"]).toBeUndefined();
    expect(received.headers.authorization).toBeUndefined();
    expect(received.headers["x-extra-header"]).toBe("extra-value");
    expect(received.body).toEqual({ ...body, model: "anthropic/claude-test" });
    expect(result).toMatchObject({ kind: "json", status: 200, body: message });
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 5, cacheReadTokens: 2000, cacheWriteTokens: 300, reasoningTokens: 0 });
  });

  it("forwards the caller's anthropic-version and anthropic-beta", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, message));
    await messages(adapter, { max_tokens: 5, messages: [] }, target, callContext(), {
      "anthropic-version": "2023-01-01",
      "anthropic-beta": "prompt-caching-2024-07-31",
      "x-gateway-client": "should-not-be-forwarded",
    });
    const received = upstream.requests[0]!;
    expect(received.headers["anthropic-version"]).toBe("2023-01-01");
    expect(received.headers["anthropic-beta"]).toBe("prompt-caching-2024-07-31");
    expect(received.headers["x-gateway-client"]).toBeUndefined();
  });

  it("streams named SSE events through unchanged and computes usage with cache tokens", async () => {
    const { adapter, target } = await setup((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(sseText);
    });
    const result = await messages(adapter, { max_tokens: 5, stream: true, messages: [] }, target, callContext());
    if (result.kind !== "stream") throw new Error("expected a stream");
    const events = await collect(renderStreamResult(result).events);
    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events.map((event) => `event: ${event.event}\ndata: ${event.data}\n\n`).join("")).toBe(sseText);
    expect(renderStreamResult(result).usage()).toEqual({ inputTokens: 25, outputTokens: 15, cacheReadTokens: 100, cacheWriteTokens: 10, reasoningTokens: 0 });
  });

  it("counts tokens natively", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, { input_tokens: 42 }));
    const body = { model: "x", messages: [{ role: "user", content: "Hello" }], system: "s" };
    expect(await countTokens(adapter, body, target, callContext())).toEqual({ inputTokens: 42, local: false });
    expect(upstream.requests[0]!.path).toBe("/v1/messages/count_tokens");
    expect(upstream.requests[0]!.body).toEqual({ ...body, model: "anthropic/claude-test" });
  });

  it("maps Anthropic error bodies: 429 with retry-after, 529 overloaded -> 502, 400 message", async () => {
    let status = 429;
    const { adapter, target } = await setup((_request, response) =>
      sendJson(
        response,
        status,
        { type: "error", error: { type: status === 400 ? "invalid_request_error" : "rate_limit_error", message: status === 400 ? "max_tokens: Field required" : "Number of request tokens has exceeded your rate limit" }, request_id: "req_1" },
        { "retry-after": "30" },
      ),
    );
    expect(await rejectionOf(messages(adapter, { messages: [] }, target, callContext()))).toMatchObject({
      code: "upstream_rate_limited",
      retryAfter: "30",
      message: "Number of request tokens has exceeded your rate limit",
    });
    status = 529;
    expect(await rejectionOf(messages(adapter, { messages: [] }, target, callContext()))).toMatchObject({ code: "upstream_error", status: 502, retryable: true });
    status = 400;
    expect(await rejectionOf(messages(adapter, { messages: [] }, target, callContext()))).toMatchObject({
      code: "invalid_request",
      message: "max_tokens: Field required",
      retryable: false,
    });
  });

  it("passes messages and count_tokens through, translates chat completions, has no embeddings", async () => {
    const { adapter } = await setup((_request, response) => sendJson(response, 200, message));
    expect(adapter.chat?.passthrough).toEqual(["anthropic-messages"]);
    expect(adapter.tokenCounter?.passthrough).toEqual(["anthropic-messages"]);
    expect(adapter.decisions).toMatchObject({ passthrough: [], logprobs: false });
    expect(adapter.embeddings).toBeUndefined();
  });
});
