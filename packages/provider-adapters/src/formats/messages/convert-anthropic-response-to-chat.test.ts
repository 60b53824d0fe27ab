import { normalizeMessagesUsage } from "./messages-usage.js";
import { normalizeChatUsage } from "../chat-completions/chat-usage.js";
import { describe, expect, it } from "vitest";
import { expectJsonGolden, readFixtureJson } from "../__fixtures__/golden.js";
import { convertAnthropicResponseToChat } from "./convert-anthropic-response-to-chat.js";

const created = 1735689600;

describe("convertAnthropicResponseToChat (golden)", () => {
  it.each<[string, string | undefined]>([
    ["text-cache", undefined],
    ["parallel-tool-use", undefined],
    ["refusal", undefined],
    ["json-response-tool", "math_answer"],
    ["max-tokens", undefined],
  ])("%s", (name, jsonResponseTool) => {
    const response = readFixtureJson(`anthropic-response/${name}.anthropic.json`);
    const converted = convertAnthropicResponseToChat(response, { model: "anthropic/claude-sonnet-4-5", created, jsonResponseTool });
    expectJsonGolden(`anthropic-response/${name}.openai.json`, converted);
  });
});

describe("convertAnthropicResponseToChat", () => {
  const model = "anthropic/claude-sonnet-4-5";

  it("keeps cache tokens: prompt_tokens includes them, cached_tokens and cache_write_tokens name them", () => {
    const response = readFixtureJson("anthropic-response/text-cache.anthropic.json");
    const converted = convertAnthropicResponseToChat(response, { model, created });
    expect(converted.usage).toMatchObject({
      prompt_tokens: 21 + 188 + 1024,
      completion_tokens: 12,
      total_tokens: 21 + 188 + 1024 + 12,
      prompt_tokens_details: { cached_tokens: 1024, cache_write_tokens: 188 },
    });
    // Billing the translated body gives the same numbers as billing the upstream body.
    expect(normalizeChatUsage(converted.usage as never)).toEqual(normalizeMessagesUsage(response.usage as never));
  });

  it("turns tool_use blocks into tool_calls with JSON-string arguments in order", () => {
    const converted = convertAnthropicResponseToChat(readFixtureJson("anthropic-response/parallel-tool-use.anthropic.json"), { model, created });
    const choice = (converted.choices as Record<string, any>[])[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBe("Let me check both cities.");
    expect(choice?.message.tool_calls.map((call: any) => [call.id, call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ["toolu_01T1x1fJ34qAmk2tNTrN7Up6", "get_weather", { location: "Paris" }],
      ["toolu_01CNzzTXrUXo8ZSyXbZ2Rr2N", "get_weather", { location: "Tokyo" }],
      ["toolu_01Sx8WJ9gkPrzWNE7cVJvqcY", "get_time", {}],
    ]);
  });

  it("reports a refusal as content_filter with message.refusal", () => {
    const converted = convertAnthropicResponseToChat(readFixtureJson("anthropic-response/refusal.anthropic.json"), { model, created });
    const choice = (converted.choices as Record<string, any>[])[0];
    expect(choice?.finish_reason).toBe("content_filter");
    expect(choice?.message.content).toBeNull();
    expect(typeof choice?.message.refusal).toBe("string");
  });

  it("returns the response_format tool input as the content with finish_reason stop", () => {
    const response = readFixtureJson("anthropic-response/json-response-tool.anthropic.json");
    const choice = (convertAnthropicResponseToChat(response, { model, created, jsonResponseTool: "math_answer" }).choices as any[])[0];
    expect(choice.finish_reason).toBe("stop");
    expect(JSON.parse(choice.message.content)).toEqual({ answer: 42 });
    expect(choice.message.tool_calls).toBeUndefined();
  });

  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["pause_turn", "stop"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["tool_use", "tool_calls"],
    ["refusal", "content_filter"],
    ["a_future_reason", "stop"],
  ])("maps stop_reason %s to finish_reason %s", (stopReason, finishReason) => {
    const response = { ...readFixtureJson("anthropic-response/max-tokens.anthropic.json"), stop_reason: stopReason };
    expect((convertAnthropicResponseToChat(response, { model, created }).choices as any[])[0].finish_reason).toBe(finishReason);
  });

  it("refuses a body that is not a message as an upstream error", () => {
    expect(() => convertAnthropicResponseToChat({ error: "nope" }, { model })).toThrow(/not an Anthropic message/);
  });
});
