import { describe, expect, it } from "vitest";
import { translateEvents } from "../../../test/render-stream-result.js";
import { byteChunks, collect, expectGolden, fromArray, payloads, readFixtureText, readSseFixture, toWire } from "../__fixtures__/golden.js";
import { createChatStreamEncoder } from "../chat-completions/create-chat-stream-encoder.js";
import { createMessagesStreamDecoder } from "./create-messages-stream-decoder.js";
import { parseSseStream } from "../../stream/parse-sse-stream.js";
import type { SseEvent } from "../../stream/sse-event.js";

const base = { model: "anthropic/claude-sonnet-4-5", requestId: "req_123", created: 1735689600 };

/** An Anthropic upstream's events as an OpenAI chat caller receives them. */
function pipe(source: AsyncIterable<SseEvent>, options: { includeUsage: boolean; jsonResponseTool?: string }) {
  return translateEvents(
    source,
    createMessagesStreamDecoder(options.jsonResponseTool === undefined ? {} : { jsonResponseTool: options.jsonResponseTool }),
    createChatStreamEncoder({ ...base, includeUsage: options.includeUsage }),
  );
}

async function translate(name: string, options: { includeUsage: boolean; jsonResponseTool?: string }) {
  const translated = pipe(fromArray(await readSseFixture(`anthropic-stream/${name}.anthropic.sse`)), options);
  return { events: await collect(translated.events), translated };
}

function anthropicEvent(type: string, payload: Record<string, unknown>): SseEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}

describe("Anthropic upstream -> OpenAI chat caller (golden)", () => {
  it.each<[string, boolean, string | undefined]>([
    ["text-ping-cache", true, undefined],
    ["parallel-tool-calls", false, undefined],
    ["parallel-tool-calls", true, undefined],
    ["in-stream-error", true, undefined],
    ["refusal", false, undefined],
    ["json-response-tool", true, "math_answer"],
    ["truncated", false, undefined],
  ])("%s (include_usage %s)", async (name, includeUsage, jsonResponseTool) => {
    const { events } = await translate(name, { includeUsage, jsonResponseTool });
    expectGolden(`anthropic-stream/${name}${includeUsage ? ".usage" : ""}.openai.sse`, toWire(events));
  });
});

describe("Anthropic upstream -> OpenAI chat caller", () => {
  it("starts with the role chunk and ends with [DONE]", async () => {
    const { events } = await translate("text-ping-cache", { includeUsage: false });
    expect((payloads(events)[0] as any).choices[0].delta).toEqual({ role: "assistant", content: "", refusal: null });
    expect(events.at(-1)?.data).toBe("[DONE]");
    const text = payloads(events)
      .map((chunk: any) => chunk.choices[0]?.delta.content ?? "")
      .join("");
    expect(text).toBe("Hello — ünïcode ✓");
  });

  it("numbers tool calls from 0 by tool call, not by Anthropic block index, and gives '{}' to a call without arguments", async () => {
    const { events } = await translate("parallel-tool-calls", { includeUsage: false });
    const fragments = payloads(events).flatMap((chunk: any) => chunk.choices[0]?.delta.tool_calls ?? []);
    const firsts = fragments.filter((fragment: any) => fragment.id !== undefined);
    expect(firsts.map((fragment: any) => [fragment.index, fragment.function.name, fragment.function.arguments, fragment.type])).toEqual([
      [0, "get_weather", "", "function"],
      [1, "get_weather", "", "function"],
      [2, "get_time", "", "function"],
    ]);
    for (const later of fragments.filter((fragment: any) => fragment.id === undefined)) {
      expect(Object.keys(later).sort()).toEqual(["function", "index"]);
      expect(Object.keys(later.function)).toEqual(["arguments"]);
    }
    const argumentsByIndex = new Map<number, string>();
    for (const fragment of fragments as any[]) {
      argumentsByIndex.set(fragment.index, (argumentsByIndex.get(fragment.index) ?? "") + fragment.function.arguments);
    }
    expect([...argumentsByIndex.values()].map((text) => JSON.parse(text))).toEqual([{ location: "Paris" }, { location: "Tokyo" }, {}]);
  });

  it("puts the finish reason on the last choice chunk and usage on a final choices:[] chunk only when asked", async () => {
    const withUsage = payloads((await translate("parallel-tool-calls", { includeUsage: true })).events) as any[];
    const last = withUsage.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: 472,
      completion_tokens: 89,
      total_tokens: 561,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(withUsage.at(-2).choices[0].finish_reason).toBe("tool_calls");
    expect(withUsage.slice(0, -2).every((chunk) => chunk.choices[0].finish_reason === null && chunk.usage === null)).toBe(true);

    const withoutUsage = payloads((await translate("parallel-tool-calls", { includeUsage: false })).events) as any[];
    expect(withoutUsage.at(-1).choices[0].finish_reason).toBe("tool_calls");
    expect(withoutUsage.some((chunk) => "usage" in chunk)).toBe(false);
  });

  it("keeps cache tokens in the usage chunk and in the running usage", async () => {
    const { events, translated } = await translate("text-ping-cache", { includeUsage: true });
    expect((payloads(events).at(-1) as any).usage).toMatchObject({
      prompt_tokens: 21 + 188 + 1024,
      prompt_tokens_details: { cached_tokens: 1024, cache_write_tokens: 188 },
    });
    expect(translated.usage()).toEqual({ inputTokens: 21, outputTokens: 12, cacheReadTokens: 1024, cacheWriteTokens: 188, reasoningTokens: 0 });
  });

  it("exposes partial usage while the stream is still running (for billing a disconnect)", async () => {
    const translated = pipe(fromArray(await readSseFixture("anthropic-stream/text-ping-cache.anthropic.sse")), { includeUsage: false });
    const iterator = translated.events[Symbol.asyncIterator]();
    await iterator.next(); // role chunk, after message_start
    expect(translated.usage()).toEqual({ inputTokens: 21, outputTokens: 1, cacheReadTokens: 1024, cacheWriteTokens: 188, reasoningTokens: 0 });
    await iterator.return?.();
  });

  it("ends with a final error chunk and no [DONE] on an in-stream error", async () => {
    const { events, translated } = await translate("in-stream-error", { includeUsage: true });
    const last = JSON.parse(events.at(-1)?.data ?? "{}");
    expect(last.error).toMatchObject({ code: "service_unavailable" });
    expect(last.error.message).toContain("Overloaded");
    expect(last.request_id).toBe("req_123");
    expect(events.some((event) => event.data === "[DONE]")).toBe(false);
    expect(translated.finished()).toBe(true);
    expect(translated.usage().inputTokens).toBe(30);
  });

  it("ends with an error when the upstream stops before message_stop or its read fails", async () => {
    const { events } = await translate("truncated", { includeUsage: false });
    expect(JSON.parse(events.at(-1)?.data ?? "{}").error.code).toBe("upstream_error");

    async function* failing(): AsyncIterable<SseEvent> {
      yield anthropicEvent("message_start", { message: { id: "msg_1", usage: { input_tokens: 3, output_tokens: 1 } } });
      throw new Error("socket hang up");
    }
    const failed = await collect(pipe(failing(), { includeUsage: false }).events);
    expect(failed).toHaveLength(2);
    expect(JSON.parse(failed[1]?.data ?? "{}").error.message).not.toContain("socket");
  });

  it("ignores ping events wherever they come", async () => {
    const withPings = (await translate("text-ping-cache", { includeUsage: true })).events;
    const source = (await readSseFixture("anthropic-stream/text-ping-cache.anthropic.sse")).filter((event) => event.event !== "ping");
    const withoutPings = await collect(pipe(fromArray(source), { includeUsage: true }).events);
    expect(withPings).toEqual(withoutPings);
  });

  it("gives the same output whatever the byte chunking of the upstream", async () => {
    const text = readFixtureText("anthropic-stream/parallel-tool-calls.anthropic.sse");
    const reference = await collect(pipe(parseSseStream(byteChunks(text, 65536)), { includeUsage: true }).events);
    for (const size of [1, 7, 64]) {
      const output = await collect(pipe(parseSseStream(byteChunks(text, size)), { includeUsage: true }).events);
      expect(output).toEqual(reference);
    }
  });

  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["pause_turn", "stop"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["tool_use", "tool_calls"],
    ["refusal", "content_filter"],
  ])("maps stop_reason %s to finish_reason %s", async (stopReason, finishReason) => {
    const events = [
      anthropicEvent("message_start", { message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 5, output_tokens: 1 } } }),
      anthropicEvent("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      anthropicEvent("content_block_delta", { index: 0, delta: { type: "text_delta", text: "x" } }),
      anthropicEvent("content_block_stop", { index: 0 }),
      anthropicEvent("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 2 } }),
      anthropicEvent("message_stop", {}),
    ];
    const output = payloads(await collect(pipe(fromArray(events), { includeUsage: false }).events)) as any[];
    expect(output.at(-1).choices[0].finish_reason).toBe(finishReason);
  });


});
