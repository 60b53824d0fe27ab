import { describe, expect, it } from "vitest";
import { translateEvents } from "../../../test/render-stream-result.js";
import { collect, expectGolden, fromArray, payloads, readSseFixture, toWire } from "../__fixtures__/golden.js";
import { createChatStreamDecoder } from "../chat-completions/create-chat-stream-decoder.js";
import { createMessagesStreamEncoder } from "./create-messages-stream-encoder.js";
import type { SseEvent } from "../../stream/sse-event.js";

const base = { model: "openai/gpt-4o", requestId: "req_456" };

/** An OpenAI upstream's chunks as an Anthropic messages caller receives them. */
function pipe(source: AsyncIterable<SseEvent>) {
  return translateEvents(source, createChatStreamDecoder(), createMessagesStreamEncoder(base));
}

async function translate(name: string) {
  const translated = pipe(fromArray(await readSseFixture(`chat-stream/${name}.openai.sse`)));
  return { events: await collect(translated.events), translated };
}

/** Rebuilds the final message the way the Anthropic SDK accumulates stream events. */
function accumulate(events: SseEvent[]) {
  const content: any[] = [];
  const partialJson = new Map<number, string>();
  let stopReason: string | undefined;
  let usage: unknown;
  const open = new Set<number>();
  for (const event of events) {
    const payload = JSON.parse(event.data);
    expect(payload.type).toBe(event.event);
    if (payload.type === "content_block_start") {
      // Anthropic never interleaves blocks: one is open at a time.
      expect(open.size).toBe(0);
      expect(payload.index).toBe(content.length);
      content.push(structuredClone(payload.content_block));
      open.add(payload.index);
    } else if (payload.type === "content_block_delta") {
      expect(open.has(payload.index)).toBe(true);
      if (payload.delta.type === "text_delta") content[payload.index].text += payload.delta.text;
      else partialJson.set(payload.index, (partialJson.get(payload.index) ?? "") + payload.delta.partial_json);
    } else if (payload.type === "content_block_stop") {
      expect(open.delete(payload.index)).toBe(true);
      const json = partialJson.get(payload.index);
      if (json !== undefined) content[payload.index].input = JSON.parse(json);
    } else if (payload.type === "message_delta") {
      stopReason = payload.delta.stop_reason;
      usage = payload.usage;
    }
  }
  expect(open.size).toBe(0);
  return { content, stopReason, usage };
}

describe("OpenAI upstream -> Anthropic messages caller (golden)", () => {
  it.each(["text-cache-usage", "parallel-tool-calls", "interleaved-tool-calls", "in-stream-error", "refusal", "length-no-done"])(
    "%s",
    async (name) => {
      const { events } = await translate(name);
      expectGolden(`chat-stream/${name}.anthropic.sse`, toWire(events));
    },
  );
});

describe("OpenAI upstream -> Anthropic messages caller", () => {
  it("frames the stream as message_start ... message_stop with cumulative usage including cache reads", async () => {
    const { events, translated } = await translate("text-cache-usage");
    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const message = accumulate(events);
    expect(message.content).toEqual([{ type: "text", text: "Hello there ✓" }]);
    expect(message.stopReason).toBe("end_turn");
    expect(message.usage).toEqual({ input_tokens: 86, cache_creation_input_tokens: 0, cache_read_input_tokens: 1920, output_tokens: 300 });
    expect(translated.usage()).toEqual({ inputTokens: 86, outputTokens: 300, cacheReadTokens: 1920, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("gives text and each parallel tool call its own block in arrival order, with input_json_delta", async () => {
    const { events } = await translate("parallel-tool-calls");
    // A sequential upstream gives strictly sequential blocks, as Anthropic itself sends them.
    const blockEvents = events.filter((event) => event.event === "content_block_start" || event.event === "content_block_stop");
    expect(blockEvents.map((event) => `${event.event === "content_block_start" ? "start" : "stop"}:${JSON.parse(event.data).index}`)).toEqual([
      "start:0", "stop:0", "start:1", "stop:1", "start:2", "stop:2", "start:3", "stop:3",
    ]);
    const message = accumulate(events);
    expect(message.content).toEqual([
      { type: "text", text: "Checking both." },
      { type: "tool_use", id: "call_DdmO9pD3xa9XTPNJ32zg2hcA", name: "get_weather", input: { location: "Paris" } },
      { type: "tool_use", id: "call_ABpTXR2FaUpDVMUF6DTU1Lq4", name: "get_weather", input: { location: "Tokyo" } },
      { type: "tool_use", id: "call_Qm8tWEuJpR5zLbTQ2yGdL9vX", name: "get_time", input: {} },
    ]);
    expect(message.stopReason).toBe("tool_use");
  });

  it("keeps one block open at a time when the upstream interleaves parallel calls: the first streams live, the later one follows whole", async () => {
    const { events } = await translate("interleaved-tool-calls");
    const message = accumulate(events);
    expect(message.content.map((block) => block.input)).toEqual([{ q: "a" }, { q: "b" }]);
    const deltas = payloads(events).filter((payload: any) => payload.type === "content_block_delta") as any[];
    // The first call's two fragments go out as they came; the second call's are buffered into one delta.
    expect(deltas.map((delta) => [delta.index, delta.delta.partial_json])).toEqual([
      [0, '{"q":'],
      [0, ' "a"}'],
      [1, '{"q": "b"}'],
    ]);
  });

  it("buffers three interleaved calls and emits them in the order they started", async () => {
    const chunk = (toolCalls: unknown[], finish: string | null = null) => ({
      data: JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: toolCalls.length ? { tool_calls: toolCalls } : {}, finish_reason: finish }] }),
    });
    const start = (index: number, name: string) => ({ index, id: `call_${index}`, type: "function", function: { name, arguments: "" } });
    const args = (index: number, text: string) => ({ index, function: { arguments: text } });
    const events = await collect(
      pipe(
        fromArray([
          chunk([start(0, "a"), start(1, "b"), start(2, "c")]),
          chunk([args(2, '{"z"'), args(0, '{"x"'), args(1, '{"y"')]),
          chunk([args(1, ":2}"), args(2, ":3}"), args(0, ":1}")]),
          chunk([], "tool_calls"),
          { data: "[DONE]" },
        ]),
      ).events,
    );
    const message = accumulate(events);
    expect(message.content).toEqual([
      { type: "tool_use", id: "call_0", name: "a", input: { x: 1 } },
      { type: "tool_use", id: "call_1", name: "b", input: { y: 2 } },
      { type: "tool_use", id: "call_2", name: "c", input: { z: 3 } },
    ]);
    expect(message.stopReason).toBe("tool_use");
  });

  it("turns an upstream error chunk into event: error and ends without message_stop", async () => {
    const { events } = await translate("in-stream-error");
    const last = events.at(-1);
    expect(last?.event).toBe("error");
    const body = JSON.parse(last?.data ?? "{}");
    expect(body).toMatchObject({ type: "error", error: { type: "api_error" }, request_id: "req_456" });
    expect(events.some((event) => event.event === "message_stop")).toBe(false);
  });

  it("reports a streamed refusal as stop_reason refusal", async () => {
    const message = accumulate((await translate("refusal")).events);
    expect(message.stopReason).toBe("refusal");
    expect(message.content).toEqual([{ type: "text", text: "I'm sorry, I can't help with that." }]);
  });

  it("completes a stream that has a finish reason but no [DONE], and fails one that has neither", async () => {
    const { events } = await translate("length-no-done");
    expect(events.at(-1)?.event).toBe("message_stop");
    expect(accumulate(events).stopReason).toBe("max_tokens");

    const truncated = (await readSseFixture("chat-stream/text-cache-usage.openai.sse")).slice(0, 2);
    const output = await collect(pipe(fromArray(truncated)).events);
    expect(output.at(-1)?.event).toBe("error");
  });

  it.each([
    ["stop", "end_turn"],
    ["length", "max_tokens"],
    ["tool_calls", "tool_use"],
    ["content_filter", "refusal"],
  ])("maps finish_reason %s to stop_reason %s", async (finishReason, stopReason) => {
    const chunk = (delta: unknown, finish: string | null) => ({
      data: JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
    });
    const output = await collect(
      pipe(fromArray([chunk({ role: "assistant", content: "x" }, null), chunk({}, finishReason), { data: "[DONE]" }])).events,
    );
    const delta = payloads(output).find((payload: any) => payload.type === "message_delta") as any;
    expect(delta.delta.stop_reason).toBe(stopReason);
  });
});
