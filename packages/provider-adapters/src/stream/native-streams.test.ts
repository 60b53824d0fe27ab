import { describe, expect, it } from "vitest";
import { translateEvents } from "../../test/render-stream-result.js";
import { collect, fromArray, readSseFixture, toWire } from "../formats/__fixtures__/golden.js";
import { createChatPassthroughRenderer } from "../formats/chat-completions/create-chat-passthrough-renderer.js";
import { createChatStreamDecoder } from "../formats/chat-completions/create-chat-stream-decoder.js";
import { createMessagesPassthroughRenderer } from "../formats/messages/create-messages-passthrough-renderer.js";
import { createMessagesStreamDecoder } from "../formats/messages/create-messages-stream-decoder.js";
import type { SseEvent } from "./sse-event.js";
import type { StreamFrame } from "./stream-part.js";

const requestId = "req_native";

function chatNative(source: SseEvent[], includeUsage = true) {
  return translateEvents(fromArray(source), createChatStreamDecoder(), createChatPassthroughRenderer({ requestId, includeUsage }));
}

function messagesNative(source: SseEvent[]) {
  return translateEvents(fromArray(source), createMessagesStreamDecoder(), createMessagesPassthroughRenderer({ requestId }));
}

const chatChunk = (payload: Record<string, unknown>): SseEvent => ({
  data: JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-test", ...payload }),
});

describe("native passthrough: the provider's own bytes for every event that validated", () => {
  it("OpenAI chat: the rendered stream is byte-identical to the upstream's, unknown fields included", async () => {
    const source = await readSseFixture("chat-stream/parallel-tool-calls.openai.sse");
    const output = await collect(chatNative(source).events);
    expect(toWire(output)).toBe(toWire(source));
  });

  it("OpenAI chat: the usage-only chunk the gateway asked for is left out when the caller did not ask", async () => {
    const source = await readSseFixture("chat-stream/text-cache-usage.openai.sse");
    const translated = chatNative(source, false);
    const output = await collect(translated.events);
    expect(output).toEqual(source.filter((event) => event.data === "[DONE]" || JSON.parse(event.data).choices.length > 0));
    // ...and its usage still reached the pipeline.
    expect(translated.usage()).toMatchObject({ inputTokens: 86, cacheReadTokens: 1920, outputTokens: 300 });
  });

  it("Anthropic messages: the rendered stream is byte-identical to the upstream's, pings included", async () => {
    const source = await readSseFixture("anthropic-stream/text-ping-cache.anthropic.sse");
    const output = await collect(messagesNative(source).events);
    expect(toWire(output)).toBe(toWire(source));
  });
});

describe("native passthrough: every event is parsed and checked", () => {
  const role = chatChunk({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
  const text = chatChunk({ choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] });

  it.each([
    ["not JSON", { data: "{not json" }],
    ["a JSON array", { data: "[1,2]" }],
    ["a chunk without choices", chatChunk({ foo: 1 })],
    ["a choice with a string index", chatChunk({ choices: [{ index: "0", delta: { content: "x" } }] })],
    ["content that is not a string", chatChunk({ choices: [{ index: 0, delta: { content: 42 } }] })],
    ["a tool call fragment without an index", chatChunk({ choices: [{ index: 0, delta: { tool_calls: [{ function: { arguments: "{}" } }] } }] })],
  ])("OpenAI chat: %s ends the stream with a final data: {error} (never forwarded, no [DONE])", async (_name, bad) => {
    const output = await collect(chatNative([role, text, bad as SseEvent, text, { data: "[DONE]" }]).events);
    expect(output.slice(0, 2)).toEqual([role, text]);
    expect(output).toHaveLength(3);
    const last = JSON.parse(output[2]!.data);
    expect(last).toMatchObject({ error: { code: "upstream_error", type: "upstream_error" }, request_id: requestId });
    expect(last.error.message).toMatch(/^The provider sent an invalid stream event/);
    expect(output.some((event) => event.data === "[DONE]")).toBe(false);
  });

  const start = { event: "message_start", data: JSON.stringify({ type: "message_start", message: { id: "msg_1", model: "claude", usage: { input_tokens: 3, output_tokens: 1 } } }) };
  it.each([
    ["not JSON", { event: "content_block_delta", data: "{" }],
    ["a type that does not match the event name", { event: "content_block_delta", data: JSON.stringify({ type: "message_stop" }) }],
    ["a block event without an index", { event: "content_block_delta", data: JSON.stringify({ type: "content_block_delta", delta: { type: "text_delta", text: "x" } }) }],
    ["a delta without a type", { event: "content_block_delta", data: JSON.stringify({ type: "content_block_delta", index: 0, delta: { text: "x" } }) }],
  ])("Anthropic messages: %s ends the stream with event: error", async (_name, bad) => {
    const output = await collect(messagesNative([start, bad, { event: "message_stop", data: '{"type":"message_stop"}' }]).events);
    expect(output[0]).toEqual(start);
    expect(output).toHaveLength(2);
    expect(output[1]!.event).toBe("error");
    expect(JSON.parse(output[1]!.data)).toMatchObject({ type: "error", error: { type: "api_error" }, request_id: requestId });
  });

  it("the provider's own error events pass through as sent", async () => {
    const chatError = { data: JSON.stringify({ error: { message: "boom", type: "server_error" } }) };
    expect((await collect(chatNative([role, chatError]).events)).at(-1)).toEqual(chatError);
    const messagesError = { event: "error", data: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) };
    expect((await collect(messagesNative([start, messagesError]).events)).at(-1)).toEqual(messagesError);
  });

  it("a stream that stops without its terminal event fails, unless a finish reason was seen", async () => {
    const truncated = await collect(chatNative([role, text]).events);
    expect(JSON.parse(truncated.at(-1)!.data).error.message).toBe("The provider stream ended before it completed.");
    const finished = chatChunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    const completed = await collect(chatNative([role, text, finished]).events);
    expect(completed.at(-1)).toEqual({ data: "[DONE]" });
  });
});

describe("native passthrough: frames changed by an output guardrail are re-rendered, not forwarded", () => {
  it("OpenAI chat: changed text patches only delta.content; released text joins the finish chunk's choice", () => {
    const decoder = createChatStreamDecoder();
    const renderer = createChatPassthroughRenderer({ requestId, includeUsage: false });
    const withExtra = chatChunk({ system_fingerprint: "fp_1", choices: [{ index: 0, delta: { content: "my key is sk-123" }, logprobs: { content: [] }, finish_reason: null }] });
    const frame = decoder.decode(withExtra);
    const part = frame.parts.find((candidate) => candidate.type === "text-delta");
    if (part?.type !== "text-delta") throw new Error("expected a text part");
    part.text = "my key is [REDACTED:secret]";
    frame.modified = true;
    const [event] = renderer.render(frame);
    expect(JSON.parse(event!.data)).toEqual({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-test",
      system_fingerprint: "fp_1",
      choices: [{ index: 0, delta: { content: "my key is [REDACTED:secret]" }, logprobs: { content: [] }, finish_reason: null }],
    });

    const finish = decoder.decode(chatChunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
    const released: StreamFrame = { ...finish, modified: true, parts: [{ type: "text-delta", choice: 0, text: " (held)", synthetic: true }, ...finish.parts] };
    const [finishEvent] = renderer.render(released);
    expect(JSON.parse(finishEvent!.data).choices).toEqual([{ index: 0, delta: { content: " (held)" }, finish_reason: "stop" }]);

    const done = decoder.decode({ data: "[DONE]" });
    expect(renderer.render({ ...done, modified: true, parts: [{ type: "text-delta", choice: 0, text: "tail", synthetic: true }, ...done.parts] }).map((item) => item.data)).toEqual([
      JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-test", choices: [{ index: 0, delta: { content: "tail" }, logprobs: null, finish_reason: null }] }),
      "[DONE]",
    ]);
  });

  it("Anthropic messages: released text goes out as its own text_delta before the block stops", () => {
    const decoder = createMessagesStreamDecoder();
    const renderer = createMessagesPassthroughRenderer({ requestId });
    decoder.decode({ event: "content_block_start", data: JSON.stringify({ type: "content_block_start", index: 2, content_block: { type: "text", text: "" } }) });
    const stop = decoder.decode({ event: "content_block_stop", data: JSON.stringify({ type: "content_block_stop", index: 2 }) });
    const output = renderer.render({ ...stop, modified: true, parts: [{ type: "text-delta", choice: 0, block: 2, text: "held", synthetic: true }, ...stop.parts] });
    expect(output).toEqual([
      { event: "content_block_delta", data: JSON.stringify({ type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "held" } }) },
      stop.source,
    ]);
  });
});
