import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { translateEvents } from "../../../test/render-stream-result.js";
import { collect, expectGolden, fromArray, payloads, readFixtureText, readSseFixture, toWire } from "../__fixtures__/golden.js";
import { createChatStreamDecoder } from "../chat-completions/create-chat-stream-decoder.js";
import { createMessagesStreamDecoder } from "../messages/create-messages-stream-decoder.js";
import { createResponsesPassthroughRenderer } from "./create-responses-passthrough-renderer.js";
import { createResponsesStreamDecoder } from "./create-responses-stream-decoder.js";
import { createResponsesStreamEncoder } from "./create-responses-stream-encoder.js";
import type { SseEvent } from "../../stream/sse-event.js";
import type { StreamDecoder, StreamFrame } from "../../stream/stream-part.js";

const request = { model: "gw/openai/gpt", instructions: "Be brief.", tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }], metadata: { ticket: "T-1" } };
const encoder = () =>
  createResponsesStreamEncoder({ model: "gw/vendor/model", requestId: "req_123", request, createdAt: 1735689600, now: () => 1735689601, overrides: { store: true, previous_response_id: null } });

async function translate(source: SseEvent[], decoder: StreamDecoder) {
  const translated = translateEvents(fromArray(source), decoder, encoder());
  return { events: await collect(translated.events), usage: translated.usage() };
}

/** Checks what every Responses client relies on: numbered events, a lifecycle start, one terminal event. */
function expectWellFormed(events: SseEvent[]) {
  const all = payloads(events) as { type: string; sequence_number: number }[];
  expect(all.map((event) => event.sequence_number)).toEqual(all.map((_event, index) => index));
  expect(events.every((event) => event.event === JSON.parse(event.data).type)).toBe(true);
  expect(all[0]?.type).toBe("response.created");
  const terminal = all.filter((event) => ["response.completed", "response.incomplete", "response.failed"].includes(event.type));
  expect(terminal).toHaveLength(1);
  expect(all.at(-1)).toBe(terminal[0]);
}

describe("chat completions upstream -> Responses caller (golden)", () => {
  it.each(["text-cache-usage", "parallel-tool-calls", "interleaved-tool-calls", "refusal", "length-no-done", "in-stream-error"])("%s", async (name) => {
    const { events } = await translate(await readSseFixture(`chat-stream/${name}.openai.sse`), createChatStreamDecoder());
    expectWellFormed(events);
    expectGolden(`responses-stream/from-chat-${name}.responses.sse`, toWire(events));
  });

  it("a stream cut before it finished ends with the error event and response.failed (the output so far kept)", async () => {
    const chunk = (delta: Record<string, unknown>) => ({ data: JSON.stringify({ id: "chatcmpl-cut", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: null }] }) });
    const { events } = await translate([chunk({ role: "assistant", content: "" }), chunk({ content: "Half an ans" })], createChatStreamDecoder());
    expectWellFormed(events);
    expectGolden("responses-stream/from-chat-cut.responses.sse", toWire(events));
    const [error, failed] = payloads(events).slice(-2) as any[];
    expect(error).toMatchObject({ type: "error", code: "upstream_error", message: "The provider stream ended before it completed." });
    expect(failed.response).toMatchObject({ status: "failed", error: { code: "server_error" } });
    expect(failed.response.output).toEqual([
      { id: "msg_123_0", type: "message", status: "incomplete", content: [{ type: "output_text", annotations: [], logprobs: [], text: "Half an ans" }], role: "assistant" },
    ]);
  });
});

describe("Anthropic messages upstream -> Responses caller (golden)", () => {
  it.each<[string, string | undefined]>([
    ["text-ping-cache", undefined],
    ["parallel-tool-calls", undefined],
    ["refusal", undefined],
    ["json-response-tool", "math_answer"],
    ["in-stream-error", undefined],
    ["truncated", undefined],
  ])("%s", async (name, jsonResponseTool) => {
    const decoder = createMessagesStreamDecoder(jsonResponseTool === undefined ? {} : { jsonResponseTool });
    const { events, usage } = await translate(await readSseFixture(`anthropic-stream/${name}.anthropic.sse`), decoder);
    expectWellFormed(events);
    expectGolden(`responses-stream/from-anthropic-${name}.responses.sse`, toWire(events));
    if (name === "text-ping-cache") {
      const completed = payloads(events).at(-1) as any;
      // input_tokens includes cache reads and writes; the split is kept (cache writes as the gateway's extension).
      expect(completed.response.usage).toEqual({
        input_tokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
        input_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
        output_tokens: usage.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens,
      });
      expect(completed.response).toMatchObject({ status: "completed", store: true, model: "gw/vendor/model", instructions: "Be brief.", metadata: { ticket: "T-1" }, completed_at: 1735689601 });
    }
  });
});

describe("native Responses upstream -> Responses caller", () => {
  async function passthrough(overrides: Record<string, unknown>, change?: (frame: StreamFrame) => void) {
    const renderer = createResponsesPassthroughRenderer({ requestId: "req_1", overrides });
    const frames = await collect(
      (async function* () {
        const decoder = createResponsesStreamDecoder();
        for (const event of await readSseFixture("responses-stream/text-tool-usage.responses.sse")) yield decoder.decode(event);
      })(),
    );
    const events: SseEvent[] = [];
    for (const frame of frames) {
      change?.(frame);
      events.push(...renderer.render(frame));
    }
    return { frames, events, result: renderer.result?.() as any };
  }

  it("decodes every event once into typed parts, with the usage normalized (cached and reasoning tokens)", async () => {
    const { frames } = await passthrough({ store: false, previous_response_id: null });
    const parts = frames.flatMap((frame) => frame.parts);
    expect(parts.filter((part) => part.type === "text-delta").map((part) => (part as { text: string }).text).join("")).toBe("Héllo ✓");
    expect(parts.filter((part) => part.type === "reasoning-delta")).toHaveLength(1);
    expect(parts.filter((part) => part.type.startsWith("tool-call")).map((part) => part.type)).toEqual(["tool-call-start", "tool-call-delta", "tool-call-delta", "tool-call-end"]);
    expect(parts.find((part) => part.type === "tool-call-start")).toMatchObject({ id: "call_1", name: "get_weather", toolIndex: 0 });
    expect(parts.find((part) => part.type === "usage")).toEqual({ type: "usage", usage: { inputTokens: 20, cacheReadTokens: 100, cacheWriteTokens: 0, outputTokens: 40, reasoningTokens: 12 } });
    expect(parts.filter((part) => part.type === "finish")).toEqual([{ type: "finish", choice: 0, reason: "tool_calls", raw: "completed" }]);
    expect(parts.at(-1)).toEqual({ type: "end" });
  });

  it("forwards the provider's bytes when nothing differs, and patches only the lifecycle events with the gateway's state", async () => {
    const unchanged = await passthrough({ store: false, previous_response_id: null });
    expect(toWire(unchanged.events)).toBe(readFixtureText("responses-stream/text-tool-usage.responses.sse"));
    const patched = await passthrough({ store: true, previous_response_id: "resp_prev" });
    const changed = patched.events.filter((event, index) => event.data !== unchanged.events[index]!.data).map((event) => event.event);
    expect(changed).toEqual(["response.created", "response.in_progress", "response.completed"]);
    expect(patched.result).toMatchObject({ id: "resp_abc", store: true, previous_response_id: "resp_prev" });
  });

  it("text a guardrail changed reaches every event that repeats it; an event the gateway adds keeps the numbering consecutive", async () => {
    const { events, result } = await passthrough({ store: false, previous_response_id: null }, (frame) => {
      const payload = frame.payload as { type?: string; sequence_number?: number } | null;
      if (payload?.sequence_number === 8) {
        // As the relay does: the scanner held "✓" back from this delta, then releases it before the text ends.
        const part = frame.parts[0] as { text: string };
        part.text = "llo ";
        frame.modified = true;
      }
      if (payload?.sequence_number === 9) {
        frame.parts.unshift({ type: "text-delta", choice: 0, block: 1, text: "[x]", synthetic: true });
        frame.modified = true;
      }
    });
    const all = payloads(events) as any[];
    expect(all.map((event) => event.sequence_number)).toEqual(all.map((_event, index) => index));
    const deltas = all.filter((event) => event.type === "response.output_text.delta").map((event) => event.delta);
    expect(deltas).toEqual(["Hé", "llo ", "[x]"]);
    expect(all.find((event) => event.type === "response.output_text.done").text).toBe("Héllo [x]");
    expect(all.find((event) => event.type === "response.content_part.done").part.text).toBe("Héllo [x]");
    expect(result.output[1].content[0].text).toBe("Héllo [x]");
  });

  it("relays the provider's own error event as it came, then response.failed with the response so far", () => {
    const renderer = createResponsesPassthroughRenderer({ requestId: "req_1", overrides: { store: false, previous_response_id: null } });
    const decoder = createResponsesStreamDecoder();
    const item = { id: "msg_1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Hi", annotations: [] }] };
    const upstream: SseEvent[] = [
      { event: "response.created", data: JSON.stringify({ type: "response.created", sequence_number: 0, response: { id: "resp_1", object: "response", status: "in_progress", store: false, previous_response_id: null, output: [] } }) },
      { event: "response.output_item.done", data: JSON.stringify({ type: "response.output_item.done", sequence_number: 1, output_index: 0, item }) },
      { event: "error", data: JSON.stringify({ type: "error", sequence_number: 2, code: "server_error", message: "The server had an error.", param: null }) },
    ];
    const events = upstream.flatMap((event) => renderer.render(decoder.decode(event)));
    expect(events.slice(0, 3)).toEqual(upstream);
    expect(events).toHaveLength(4);
    expect(events[3]!.event).toBe("response.failed");
    expect(JSON.parse(events[3]!.data)).toEqual({
      type: "response.failed",
      sequence_number: 3,
      response: { id: "resp_1", object: "response", status: "failed", store: false, previous_response_id: null, output: [item], error: { code: "server_error", message: "The provider failed mid-stream (server_error): The server had an error." } },
    });
  });

  it("an invalid event, an error event and a stream without a terminal event each end it with an error part", () => {
    const decoder = createResponsesStreamDecoder();
    expect(decoder.decode({ event: "response.output_text.delta", data: JSON.stringify({ type: "response.output_text.delta", output_index: 0, delta: 5 }) }).parts[0]).toMatchObject({ type: "error" });
    const failing = createResponsesStreamDecoder();
    const frame = failing.decode({ event: "error", data: JSON.stringify({ type: "error", sequence_number: 3, code: "rate_limit_exceeded", message: "Slow down", param: null }) });
    expect(frame.source).not.toBeNull();
    expect((frame.parts[0] as { error: GatewayError }).error.code).toBe("upstream_rate_limited");
    const cut = createResponsesStreamDecoder();
    cut.decode({ event: "response.created", data: JSON.stringify({ type: "response.created", sequence_number: 0, response: { id: "resp_1" } }) });
    expect(cut.finish()?.parts[0]).toMatchObject({ type: "error" });
  });
});
