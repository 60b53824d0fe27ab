import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { callContext, collect, connectionFor, rejectionOf, sendJson, startFakeUpstream, targetFor } from "../../../test/fake-upstream.js";
import type { FakeUpstream } from "../../../test/fake-upstream.js";
import { createProviderAdapter } from "../provider-registry.js";
import { createHttpTransport } from "../../http-transport.js";
import type { HttpTransport } from "../../http-transport.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { chatCompletions, countTokens } from "../../../test/adapter-calls.js";

// The first local count builds the tokenizer's rank tables (about 1 s on an idle 2-core
// machine, several seconds while other suites run beside it): allow for that, not for a hang.
const tokenizerLoadTimeoutMs = 30_000;

let upstream: FakeUpstream | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await upstream?.close();
  transport = undefined;
  upstream = undefined;
});

const completion = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "gpt-test",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello!", refusal: null }, logprobs: null, finish_reason: "stop" }],
  usage: {
    prompt_tokens: 120,
    completion_tokens: 7,
    total_tokens: 127,
    prompt_tokens_details: { cached_tokens: 100 },
    completion_tokens_details: { reasoning_tokens: 0 },
  },
  system_fingerprint: "fp_1",
};

function chunk(choices: unknown[], extra: Record<string, unknown> = {}) {
  return { id: "chatcmpl-2", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-test", choices, ...extra };
}

function writeSse(response: ServerResponse, includeUsage: boolean): void {
  response.writeHead(200, { "content-type": "text/event-stream" });
  const usageField = includeUsage ? { usage: null } : {};
  response.write(`data: ${JSON.stringify(chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }], usageField))}\n\n`);
  response.write(`data: ${JSON.stringify(chunk([{ index: 0, delta: { content: "Hi" }, finish_reason: null }], usageField))}\n\n`);
  response.write(`data: ${JSON.stringify(chunk([{ index: 0, delta: {}, finish_reason: "stop" }], usageField))}\n\n`);
  if (includeUsage) {
    response.write(
      `data: ${JSON.stringify(chunk([], { usage: { prompt_tokens: 50, completion_tokens: 2, total_tokens: 52, prompt_tokens_details: { cached_tokens: 20 } } }))}\n\n`,
    );
  }
  response.end("data: [DONE]\n\n");
}

async function setup(handler: Parameters<typeof startFakeUpstream>[0]) {
  upstream = await startFakeUpstream(handler);
  transport = createHttpTransport();
  const connection = connectionFor("openai", `${upstream.url}/v1`);
  return { adapter: createProviderAdapter(connection, { transport }), target: targetFor(connection, "openai/gpt-test"), upstream };
}

describe("openai adapter: native chat completions", () => {
  it("passes the body through (unknown fields untouched, model replaced) with auth and connection headers", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, completion));
    const body = { model: "openai-test/openai/gpt-test", messages: [{ role: "user", content: "Hi" }], custom_field: { a: [1, 2] }, seed: 7 };
    const result = await chatCompletions(adapter, body, target, callContext());
    const received = upstream.requests[0]!;
    expect(received.method).toBe("POST");
    expect(received.path).toBe("/v1/chat/completions");
    expect(received.headers.authorization).toBe("Bearer sk-test-secret-credential-123456");
    expect(received.headers["x-extra-header"]).toBe("extra-value");
    expect(received.body).toEqual({ ...body, model: "openai/gpt-test" });
    expect(result).toMatchObject({ kind: "json", status: 200, body: completion });
    // cached tokens are cache reads and are not counted again as input
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 7, cacheReadTokens: 100, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("streams SSE events as they arrive; forces include_usage upstream and strips the usage chunk the caller did not ask for", async () => {
    const { adapter, target, upstream } = await setup((request, response) => writeSse(response, request.body.stream_options?.include_usage === true));
    const result = await chatCompletions(adapter, { model: "x", stream: true, messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    expect(upstream.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(upstream.requests[0]!.headers.accept).toBe("text/event-stream");
    if (result.kind !== "stream") throw new Error("expected a stream");
    const events = await collect(renderStreamResult(result).events);
    expect(events.at(-1)).toEqual({ data: "[DONE]" });
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks).toHaveLength(3);
    expect(chunks.every((item) => item.choices.length === 1)).toBe(true);
    expect(chunks[1].choices[0].delta.content).toBe("Hi");
    expect(renderStreamResult(result).usage()).toEqual({ inputTokens: 30, outputTokens: 2, cacheReadTokens: 20, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("keeps the usage chunk when the caller asked for it, and the caller's other stream options", async () => {
    const { adapter, target, upstream } = await setup((request, response) => writeSse(response, request.body.stream_options?.include_usage === true));
    const result = await chatCompletions(adapter, 
      { model: "x", stream: true, stream_options: { include_usage: true, include_obfuscation: false }, messages: [] },
      target,
      callContext(),
    );
    expect(upstream.requests[0]!.body.stream_options).toEqual({ include_usage: true, include_obfuscation: false });
    if (result.kind !== "stream") throw new Error("expected a stream");
    const events = await collect(renderStreamResult(result, { includeUsage: true }).events);
    const usageChunk = JSON.parse(events.at(-2)!.data);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.prompt_tokens).toBe(50);
    expect(renderStreamResult(result).usage()).toEqual({ inputTokens: 30, outputTokens: 2, cacheReadTokens: 20, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("yields the first event before the upstream stream has ended", async () => {
    let finish: (() => void) | undefined;
    const { adapter, target } = await setup((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify(chunk([{ index: 0, delta: { content: "A" }, finish_reason: null }]))}\n\n`);
      finish = () => response.end("data: [DONE]\n\n");
    });
    const result = await chatCompletions(adapter, { stream: true, messages: [] }, target, callContext());
    if (result.kind !== "stream") throw new Error("expected a stream");
    const iterator = renderStreamResult(result).events[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(JSON.parse((first.value as { data: string }).data).choices[0].delta.content).toBe("A");
    finish?.();
    expect((await iterator.next()).value).toEqual({ data: "[DONE]" });
  });

  it("passes an upstream 429 Retry-After in seconds through exactly", async () => {
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 429, { error: { message: "Rate limit reached for gpt-test", type: "requests", code: "rate_limit_exceeded" } }, { "retry-after": "17" }),
    );
    const error = await rejectionOf(chatCompletions(adapter, { messages: [] }, target, callContext()));
    expect(error).toMatchObject({ code: "upstream_rate_limited", status: 429, retryAfter: "17", retryable: true });
    expect(error.message).toBe("Rate limit reached for gpt-test");
  });

  it("passes an upstream 429 Retry-After HTTP date through exactly", async () => {
    const date = "Wed, 21 Oct 2026 07:28:00 GMT";
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 429, { error: { message: "slow down" } }, { "retry-after": date }),
    );
    const error = await rejectionOf(chatCompletions(adapter, { messages: [], stream: true }, target, callContext()));
    expect(error).toMatchObject({ code: "upstream_rate_limited", retryAfter: date });
  });

  it("maps an upstream 500 to 502 upstream_error without the provider's internals", async () => {
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 500, { error: { message: "Traceback (most recent call last): at /srv/app.py line 3" } }),
    );
    const error = await rejectionOf(chatCompletions(adapter, { messages: [] }, target, callContext()));
    expect(error).toMatchObject({ code: "upstream_error", status: 502, retryable: true, details: { upstreamStatus: 500 } });
    expect(error.message).not.toContain("Traceback");
  });

  it("maps 400, 401, 404 and 413 with the provider's message only, never the credential", async () => {
    const answers: Record<number, unknown> = {
      400: { error: { message: "'messages' is too short", type: "invalid_request_error", param: "messages", code: null } },
      401: { error: { message: "Incorrect API key provided: sk-test-secret-credential-123456.", type: "invalid_request_error" } },
      404: { error: { message: "The model `gpt-test` does not exist", type: "invalid_request_error", code: "model_not_found" } },
      413: { error: { message: "Request too large", type: "invalid_request_error" } },
    };
    let status = 400;
    const { adapter, target } = await setup((_request, response) => sendJson(response, status, answers[status]));
    const seen: Record<number, { code: string; status: number; message: string }> = {};
    for (const next of [400, 401, 404, 413]) {
      status = next;
      seen[next] = await rejectionOf(chatCompletions(adapter, { messages: [] }, target, callContext()));
    }
    expect(seen[400]).toMatchObject({ code: "invalid_request", status: 400, message: "'messages' is too short" });
    expect(seen[401]).toMatchObject({ code: "upstream_error", status: 502 });
    expect(seen[404]).toMatchObject({ code: "model_not_found", status: 404, message: "The model `gpt-test` does not exist" });
    expect(seen[413]).toMatchObject({ code: "request_too_large", status: 413, message: "Request too large" });
    for (const error of Object.values(seen)) expect(JSON.stringify({ ...error, message: error.message })).not.toContain("sk-test-secret");
  });

  it("a 200 that is not JSON is 502", async () => {
    const { adapter, target } = await setup((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>proxy</html>");
    });
    expect(await rejectionOf(chatCompletions(adapter, { messages: [] }, target, callContext()))).toMatchObject({ code: "upstream_error", status: 502 });
  });

  it("passes chat completions through, translates messages and decisions, counts tokens locally", async () => {
    const { adapter } = await setup((_request, response) => sendJson(response, 200, completion));
    expect(adapter.chat?.passthrough).toEqual(["openai-chat", "openai-responses"]);
    expect(adapter.decisions).toMatchObject({ passthrough: [], logprobs: true });
    expect(adapter.tokenCounter?.passthrough).toEqual([]);
  });

  it("counts tokens locally without calling upstream", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, completion));
    const short = await countTokens(adapter, { model: "x", messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    const long = await countTokens(adapter, 
      { model: "x", messages: [{ role: "user", content: "Hi there, this is a considerably longer message with many more tokens." }] },
      target,
      callContext(),
    );
    expect(short.local).toBe(true);
    expect(long.inputTokens).toBeGreaterThan(short.inputTokens);
    expect(upstream.requests).toHaveLength(0);
  }, tokenizerLoadTimeoutMs);

  it("a caller that goes away mid-stream closes the upstream socket", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${JSON.stringify(chunk([{ index: 0, delta: { content: "A" }, finish_reason: null }]))}\n\n`);
    });
    const controller = new AbortController();
    const result = await chatCompletions(adapter, { stream: true, messages: [] }, target, callContext({ signal: controller.signal }));
    if (result.kind !== "stream") throw new Error("expected a stream");
    const iterator = renderStreamResult(result).events[Symbol.asyncIterator]();
    await iterator.next();
    const closed = upstream.nextSocketClose();
    const pending = iterator.next();
    controller.abort();
    expect(await rejectionOf(pending)).toMatchObject({ code: "client_cancelled" });
    await closed;
  });

  it("an upstream slower than the deadline gives 504", async () => {
    const { adapter, target } = await setup(() => {
      // never answers
    });
    expect(await rejectionOf(chatCompletions(adapter, { messages: [] }, target, callContext({ timeoutMs: 100 })))).toMatchObject({
      code: "upstream_timeout",
      status: 504,
    });
  });
});
