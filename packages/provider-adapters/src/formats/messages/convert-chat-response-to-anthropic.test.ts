import { normalizeMessagesUsage } from "./messages-usage.js";
import { normalizeChatUsage } from "../chat-completions/chat-usage.js";
import { describe, expect, it } from "vitest";
import { expectJsonGolden, readFixtureJson } from "../__fixtures__/golden.js";
import { convertChatResponseToAnthropic } from "./convert-chat-response-to-anthropic.js";

const model = "openai/gpt-4o";

describe("convertChatResponseToAnthropic (golden)", () => {
  it.each(["text-cache", "parallel-tool-calls", "refusal", "length"])("%s", (name) => {
    const response = readFixtureJson(`chat-response/${name}.openai.json`);
    expectJsonGolden(`chat-response/${name}.anthropic.json`, convertChatResponseToAnthropic(response, { model }));
  });
});

describe("convertChatResponseToAnthropic", () => {
  it("keeps cached tokens apart from input tokens", () => {
    const response = readFixtureJson("chat-response/text-cache.openai.json");
    const converted = convertChatResponseToAnthropic(response, { model });
    expect(converted.usage).toEqual({ input_tokens: 86, cache_creation_input_tokens: 0, cache_read_input_tokens: 1920, output_tokens: 300 });
    expect(normalizeMessagesUsage(converted.usage as never)).toEqual(normalizeChatUsage(response.usage as never));
  });

  it("turns tool calls into tool_use blocks with object inputs", () => {
    const converted = convertChatResponseToAnthropic(readFixtureJson("chat-response/parallel-tool-calls.openai.json"), { model });
    expect(converted.stop_reason).toBe("tool_use");
    expect((converted.content as any[]).map((block) => [block.type, block.id, block.input])).toEqual([
      ["tool_use", "call_DdmO9pD3xa9XTPNJ32zg2hcA", { location: "Paris" }],
      ["tool_use", "call_ABpTXR2FaUpDVMUF6DTU1Lq4", { location: "Tokyo" }],
      ["tool_use", "call_Qm8tWEuJpR5zLbTQ2yGdL9vX", {}],
    ]);
  });

  it("reports a refusal as stop_reason refusal with its text", () => {
    const converted = convertChatResponseToAnthropic(readFixtureJson("chat-response/refusal.openai.json"), { model });
    expect(converted.stop_reason).toBe("refusal");
    expect(converted.content).toEqual([{ type: "text", text: "I'm sorry, I can't help with that." }]);
  });

  it.each([
    ["stop", "end_turn"],
    ["length", "max_tokens"],
    ["tool_calls", "tool_use"],
    ["content_filter", "refusal"],
    ["something_else", "end_turn"],
  ])("maps finish_reason %s to stop_reason %s", (finishReason, stopReason) => {
    const response = readFixtureJson("chat-response/length.openai.json") as any;
    response.choices[0].finish_reason = finishReason;
    expect(convertChatResponseToAnthropic(response, { model }).stop_reason).toBe(stopReason);
  });

  it("refuses tool arguments that are not a JSON object as an upstream error", () => {
    const response = readFixtureJson("chat-response/parallel-tool-calls.openai.json") as any;
    response.choices[0].message.tool_calls[0].function.arguments = "{broken";
    expect(() => convertChatResponseToAnthropic(response, { model })).toThrow(/not a JSON object/);
  });
});
