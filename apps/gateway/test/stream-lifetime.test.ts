import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, openAiHandler, sendEvents, sseFrame, startWireProvider } from "./support/wire-format-providers.js";

const openAiModel = "openai-mock/openai/gpt-4o-mini";
const anthropicModel = "anthropic-mock/anthropic/claude-sonnet-4";

let openaiUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;
let snapshot: ControlPlaneSnapshot;

// The request deadline and the JSON upstream timeout are both 1 s; a stream is bounded only by its
// first-byte (1.5 s), idle (600 ms) and duration (off) timeouts.
beforeAll(async () => {
  openaiUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  snapshot = createGatewayTestSnapshot({ openai: openaiUpstream.url, anthropic: anthropicUpstream.url });
  gateway = await startTestGateway(snapshot, {
    requestTimeoutMs: 1_000,
    upstreamTimeoutMs: 1_000,
    streamFirstByteTimeoutMs: 1_500,
    streamIdleTimeoutMs: 600,
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close()]);
});

/** Posts a streamed request and reads the whole SSE answer. */
async function streamed(path: string, body: Record<string, unknown>): Promise<{ status: number; requestId: string; events: { event?: string; data: string }[] }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${testApiKey}` },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const text = await response.text();
  const events = text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      return event === undefined ? { data } : { event, data };
    });
  return { status: response.status, requestId: response.headers.get("x-request-id") ?? "", events };
}

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
  sseFrame({ id: "chatcmpl-slow", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

describe("streams are bounded by first-byte, idle and duration timeouts, never by a total deadline", () => {
  it("a healthy stream that outlasts the request deadline and the upstream timeout completes", async () => {
    const pieces = Array.from({ length: 8 }, (_, index) => `piece ${index} `);
    openaiUpstream.use((_request, response) =>
      sendEvents(response, [chunk({ role: "assistant", content: "" }), ...pieces.map((piece) => chunk({ content: piece })), chunk({}, "stop"), sseFrame("[DONE]")], {
        pauseMs: 250,
      }),
    );
    try {
      const started = Date.now();
      const answer = await streamed("/v1/chat/completions", { model: openAiModel, messages: [{ role: "user", content: "Tell me slowly." }] });
      expect(Date.now() - started).toBeGreaterThan(2_000);
      expect(answer.status).toBe(200);
      expect(answer.events.at(-1)).toEqual({ data: "[DONE]" });
      const text = answer.events
        .slice(0, -1)
        .map((event) => JSON.parse(event.data).choices[0]?.delta?.content ?? "")
        .join("");
      expect(text).toBe(pieces.join(""));
      const usage = await gateway.eventFor(answer.requestId);
      expect(usage).toMatchObject({ status: 200, errorCode: null });
    } finally {
      openaiUpstream.use(null);
    }
  });

  it("a stream that goes silent ends with the OpenAI error event after the idle timeout", async () => {
    openaiUpstream.use((_request, response) => sendEvents(response, [chunk({ role: "assistant", content: "" }), chunk({ content: "Hello" })], { keepOpen: true }));
    try {
      const started = Date.now();
      const answer = await streamed("/v1/chat/completions", { model: openAiModel, messages: [{ role: "user", content: "Hi" }] });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(550);
      expect(elapsed).toBeLessThan(5_000);
      expect(JSON.parse(answer.events[1]!.data).choices[0].delta.content).toBe("Hello");
      const last = JSON.parse(answer.events.at(-1)!.data);
      expect(last).toMatchObject({ error: { code: "upstream_timeout", type: "timeout_error" }, request_id: answer.requestId });
      expect(last.error.message).toContain("went silent for 600 ms");
      expect(answer.events.some((event) => event.data === "[DONE]")).toBe(false);
      expect(await gateway.eventFor(answer.requestId)).toMatchObject({ status: 504, errorCode: "upstream_timeout" });
    } finally {
      openaiUpstream.use(null);
    }
  });

  it("a silent Anthropic stream ends with event: error on /v1/messages", async () => {
    const start = sseFrame(
      { type: "message_start", message: { id: "msg_slow", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } },
      "message_start",
    );
    anthropicUpstream.use((_request, response) => sendEvents(response, [start], { keepOpen: true }));
    try {
      const answer = await streamed("/v1/messages", { model: anthropicModel, max_tokens: 50, messages: [{ role: "user", content: "Hi" }] });
      expect(answer.events[0]!.event).toBe("message_start");
      expect(answer.events.at(-1)!.event).toBe("error");
      expect(JSON.parse(answer.events.at(-1)!.data)).toMatchObject({ type: "error", error: { type: "timeout_error" }, request_id: answer.requestId });
    } finally {
      anthropicUpstream.use(null);
    }
  });

  it("a connection's own idle timeout overrides the global one", async () => {
    await gateway.setSnapshot({
      ...snapshot,
      version: `${snapshot.version}-idle`,
      connections: snapshot.connections.map((connection) => (connection.name === "openai-mock" ? { ...connection, timeouts: { idleMs: 150 } } : connection)),
    });
    openaiUpstream.use((_request, response) => sendEvents(response, [chunk({ role: "assistant", content: "" })], { keepOpen: true }));
    try {
      const started = Date.now();
      const answer = await streamed("/v1/chat/completions", { model: openAiModel, messages: [{ role: "user", content: "Hi" }] });
      // The message names the connection's 150 ms; the global 600 ms would have taken longer.
      expect(JSON.parse(answer.events.at(-1)!.data).error.message).toContain("went silent for 150 ms");
      expect(Date.now() - started).toBeLessThan(600);
    } finally {
      openaiUpstream.use(null);
      await gateway.setSnapshot(snapshot);
    }
  });
});

describe("native streams: every event is parsed and checked", () => {
  it("an invalid chunk on a native OpenAI stream ends it with the protocol's error event; nothing after it is forwarded", async () => {
    openaiUpstream.use((_request, response) =>
      sendEvents(response, [chunk({ role: "assistant", content: "" }), chunk({ content: "Hi" }), sseFrame({ object: "chat.completion.chunk", choices: "nope" }), chunk({ content: " again" }), sseFrame("[DONE]")]),
    );
    try {
      const answer = await streamed("/v1/chat/completions", { model: openAiModel, messages: [{ role: "user", content: "Hi" }] });
      expect(answer.events).toHaveLength(3);
      expect(JSON.parse(answer.events[2]!.data)).toMatchObject({ error: { code: "upstream_error" }, request_id: answer.requestId });
      expect(await gateway.eventFor(answer.requestId)).toMatchObject({ status: 502, errorCode: "upstream_error" });
    } finally {
      openaiUpstream.use(null);
    }
  });

  it("a data line that is not JSON on a native Anthropic stream ends it with event: error", async () => {
    anthropicUpstream.use((_request, response) => sendEvents(response, [sseFrame("{truncated", "content_block_delta")]));
    try {
      const answer = await streamed("/v1/messages", { model: anthropicModel, max_tokens: 50, messages: [{ role: "user", content: "Hi" }] });
      expect(answer.events).toHaveLength(1);
      expect(answer.events[0]!.event).toBe("error");
      expect(JSON.parse(answer.events[0]!.data)).toMatchObject({ type: "error", error: { type: "api_error" } });
    } finally {
      anthropicUpstream.use(null);
    }
  });
});
