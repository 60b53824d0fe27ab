import { describe, expect, it } from "vitest";
import type { StreamPart } from "../../stream/stream-part.js";
import { createGeminiStreamDecoder } from "./create-gemini-stream-decoder.js";

/** Decodes Gemini SSE chunks (and the end of the stream) into parts. */
function decode(chunks: unknown[], secrets: string[] = []): StreamPart[] {
  const decoder = createGeminiStreamDecoder({ secrets });
  const parts: StreamPart[] = [];
  for (const chunk of chunks) {
    if (decoder.done) break;
    parts.push(...decoder.decode({ data: typeof chunk === "string" ? chunk : JSON.stringify(chunk) }).parts);
  }
  const last = decoder.finish();
  if (last !== null) parts.push(...last.parts);
  return parts;
}

const text = (value: string, extra: Record<string, unknown> = {}) => ({ candidates: [{ content: { role: "model", parts: [{ text: value }] }, index: 0, ...extra }] });

describe("createGeminiStreamDecoder", () => {
  it("decodes text deltas, thoughts as reasoning, cumulative usage and the finish; the end comes when the stream closes", () => {
    const parts = decode([
      { ...text("Hel"), responseId: "r1", modelVersion: "gemini-2.5-flash", usageMetadata: { promptTokenCount: 4 } },
      { candidates: [{ content: { role: "model", parts: [{ text: "thinking...", thought: true }] }, index: 0 }] },
      { ...text("lo", { finishReason: "STOP" }), usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, thoughtsTokenCount: 3, totalTokenCount: 9 } },
    ]);
    expect(parts).toEqual([
      { type: "start", id: "r1", model: "gemini-2.5-flash" },
      { type: "text-delta", choice: 0, text: "Hel" },
      { type: "usage", usage: { inputTokens: 4, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } },
      { type: "reasoning-delta", choice: 0, text: "thinking..." },
      { type: "text-delta", choice: 0, text: "lo" },
      { type: "text-end", choice: 0 },
      { type: "finish", choice: 0, reason: "stop", raw: "STOP" },
      { type: "usage", usage: { inputTokens: 4, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 3 } },
      { type: "end" },
    ]);
  });

  it("decodes parallel function calls (sent whole) as start / delta / end each, after closing the text, finishing with tool_calls", () => {
    const parts = decode([
      text("Checking."),
      { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }, { functionCall: { id: "own-id", name: "get_weather", args: { city: "Rome" } } }] }, finishReason: "STOP", index: 0 }] },
    ]);
    const types = parts.map((part) => part.type);
    expect(types).toEqual(["start", "text-delta", "text-end", "tool-call-start", "tool-call-delta", "tool-call-end", "tool-call-start", "tool-call-delta", "tool-call-end", "finish", "end"]);
    const starts = parts.filter((part) => part.type === "tool-call-start") as Extract<StreamPart, { type: "tool-call-start" }>[];
    expect(starts.map((part) => part.toolIndex)).toEqual([0, 1]);
    expect(starts[0]!.id).toMatch(/^call_/);
    expect(starts[1]!.id).toBe("own-id");
    expect(parts.filter((part) => part.type === "tool-call-delta").map((part) => (part as { argumentsDelta: string }).argumentsDelta)).toEqual(['{"city":"Paris"}', '{"city":"Rome"}']);
    expect(parts.find((part) => part.type === "finish")).toMatchObject({ reason: "tool_calls", raw: "STOP" });
  });

  it("maps MAX_TOKENS to length and a blocked prompt to a refusal with content_filter", () => {
    expect(decode([text("cut", { finishReason: "MAX_TOKENS" })]).find((part) => part.type === "finish")).toMatchObject({ reason: "length" });
    const blocked = decode([{ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 3 } }]);
    expect(blocked).toContainEqual({ type: "text-delta", choice: 0, text: "The provider blocked this content (PROHIBITED_CONTENT).", refusal: true });
    expect(blocked).toContainEqual({ type: "finish", choice: 0, reason: "content_filter", raw: "PROHIBITED_CONTENT" });
    expect(blocked.at(-1)).toEqual({ type: "end" });
  });

  it("fails a cut stream, an in-stream Google error (redacted) and an event that is not a chunk", () => {
    const cut = decode([text("Hel")]);
    expect(cut.at(-1)).toMatchObject({ type: "error", error: { code: "upstream_error", message: "The provider stream ended before it completed." } });

    const failed = decode([text("Hel"), { error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Quota of key AIzaSecretKey0123456789 exceeded" } }], ["AIzaSecretKey0123456789"]);
    const error = failed.at(-1) as Extract<StreamPart, { type: "error" }>;
    expect(error.error.code).toBe("upstream_rate_limited");
    expect(error.error.message).not.toContain("AIzaSecretKey0123456789");

    expect(decode(["not json"]).at(-1)).toMatchObject({ type: "error", error: { message: "The provider sent an invalid stream event: not JSON." } });
    expect(decode([{ something: 1 }]).at(-1)).toMatchObject({ type: "error" });
  });
});
