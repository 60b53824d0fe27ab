import { describe, expect, it } from "vitest";
import { translateEvents } from "../../../test/render-stream-result.js";
import { collect, expectGolden, payloads, readFixtureText, toWire } from "../../formats/__fixtures__/golden.js";
import { createChatStreamEncoder } from "../../formats/chat-completions/create-chat-stream-encoder.js";
import { createMessagesStreamEncoder } from "../../formats/messages/create-messages-stream-encoder.js";
import { createResponsesStreamEncoder } from "../../formats/responses/create-responses-stream-encoder.js";
import { parseSseStream } from "../../stream/parse-sse-stream.js";
import type { StreamDecoder, StreamRenderer } from "../../stream/stream-part.js";
import { createGeminiStreamDecoder } from "./create-gemini-stream-decoder.js";

// Gemini streams (`streamGenerateContent?alt=sse`, recorded in __fixtures__/) as each caller
// format receives them: reviewed golden files (UPDATE_GOLDEN=1 rewrites them).

const base = { model: "gemini/google/gemini-2.5-flash", requestId: "req_gemini" };
const encoders: Record<string, () => StreamRenderer> = {
  openai: () => createChatStreamEncoder({ ...base, created: 1735689600, includeUsage: true }),
  anthropic: () => createMessagesStreamEncoder(base),
  responses: () => createResponsesStreamEncoder({ ...base, createdAt: 1735689600, now: () => 1735689601, request: {}, overrides: {} }),
};

async function* bytesOf(text: string, size: number): AsyncIterable<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.slice(offset, offset + size);
}

async function render(name: string, to: string, chunkSize = 4096) {
  const source = parseSseStream(bytesOf(readFixtureText(`../../providers/gemini/__fixtures__/${name}.gemini.sse`), chunkSize));
  // The decoder speaks no caller format; the harness only reads its frames.
  const translated = translateEvents(source, createGeminiStreamDecoder() as StreamDecoder, encoders[to]!());
  return { events: await collect(translated.events), usage: translated.usage };
}

describe("Gemini stream -> caller formats (golden)", () => {
  const names = ["text-thinking-cache", "parallel-tool-calls", "safety-block", "in-stream-error", "truncated"];
  it.each(names.flatMap((name) => Object.keys(encoders).map((to) => [name, to] as const)))("%s as %s", async (name, to) => {
    const { events } = await render(name, to);
    expectGolden(`../../providers/gemini/__fixtures__/${name}.${to}.sse`, toWire(events));
  });

  it("gives the same answer whatever the chunk boundaries (inside UTF-8 characters too)", async () => {
    const whole = toWire((await render("text-thinking-cache", "openai")).events);
    expect(toWire((await render("text-thinking-cache", "openai", 3)).events)).toBe(whole);
  });

  it("reports the last usage: cached tokens apart, thoughts as output and reasoning", async () => {
    const { usage, events } = await render("text-thinking-cache", "openai");
    expect(usage()).toEqual({ inputTokens: 10, cacheReadTokens: 30, cacheWriteTokens: 0, outputTokens: 13, reasoningTokens: 9 });
    expect(payloads(events).at(-1)).toMatchObject({ usage: { prompt_tokens: 40, completion_tokens: 13, prompt_tokens_details: { cached_tokens: 30 }, completion_tokens_details: { reasoning_tokens: 9 } } });
  });
});
