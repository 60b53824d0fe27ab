import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../../chat-request.js";
import { convertChatRequestToConverse } from "./convert-chat-request-to-converse.js";

const convert = (request: Partial<ChatRequest>) => convertChatRequestToConverse({ model: "m", messages: [], ...request } as ChatRequest, { defaultMaxTokens: 4096 });
const weatherTool = { type: "function" as const, function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } };

describe("convertChatRequestToConverse", () => {
  it("merges consecutive turns of one role (Converse requires alternating roles) and keeps cache breakpoints as cachePoints", () => {
    const { body } = convert({
      messages: [
        { role: "system", content: [{ type: "text", text: "Long rules", cache_control: { type: "ephemeral" } }] as never },
        { role: "user", content: "First" },
        { role: "user", content: "Second" },
      ],
    });
    expect(body.system).toEqual([{ text: "Long rules" }, { cachePoint: { type: "default" } }]);
    expect(body.messages).toEqual([{ role: "user", content: [{ text: "First" }, { text: "Second" }] }]);
    expect(body.inferenceConfig).toEqual({ maxTokens: 4096 });
  });

  it("puts the tool results that follow a tool call in one user turn", () => {
    const { body } = convert({
      tools: [weatherTool],
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }, { id: "b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
        { role: "tool", tool_call_id: "a", content: "sunny" },
        { role: "tool", tool_call_id: "b", content: "rain" },
      ],
    });
    expect((body.messages as unknown[]).at(-1)).toEqual({
      role: "user",
      content: [{ toolResult: { toolUseId: "a", content: [{ text: "sunny" }] } }, { toolResult: { toolUseId: "b", content: [{ text: "rain" }] } }],
    });
  });

  it("tool_choice none drops the tools, and is refused when the conversation has tool calls (Converse then needs its tools)", () => {
    expect(convert({ tools: [weatherTool], tool_choice: "none", messages: [{ role: "user", content: "Hi" }] }).body.toolConfig).toBeUndefined();
    expect(() =>
      convert({
        tools: [weatherTool],
        tool_choice: "none",
        messages: [
          { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "get_weather", arguments: "{}" } }] },
          { role: "tool", tool_call_id: "a", content: "sunny" },
        ],
      }),
    ).toThrow(expect.objectContaining({ code: "unsupported_feature", param: "tool_choice" }));
  });

  it("a named tool choice forces the tool; response_format beside user tools lets the model pick any", () => {
    expect(convert({ tools: [weatherTool], tool_choice: { type: "function", function: { name: "get_weather" } }, messages: [{ role: "user", content: "Hi" }] }).body.toolConfig).toMatchObject({ toolChoice: { tool: { name: "get_weather" } } });
    const both = convert({ tools: [weatherTool], response_format: { type: "json_object" }, messages: [{ role: "user", content: "Hi" }] });
    expect(both.jsonResponseTool).toBe("json_object_response");
    expect(both.body.toolConfig).toMatchObject({ toolChoice: { any: {} } });
  });

  it("sends user and metadata as requestMetadata and refuses fields Converse lacks", () => {
    expect(convert({ user: "u1", metadata: { team: "search" }, messages: [{ role: "user", content: "Hi" }] }).body.requestMetadata).toEqual({ team: "search", user: "u1" });
    expect(() => convert({ messages: [{ role: "user", content: "Hi" }], reasoning_effort: "high" })).toThrow(expect.objectContaining({ code: "unsupported_feature", param: "reasoning_effort" }));
    expect(() => convert({ messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "", format: "wav" } }] }] })).toThrow(
      expect.objectContaining({ code: "unsupported_feature", param: "messages[0].content[0].type" }),
    );
    // Defaults that change nothing are accepted.
    expect(() => convert({ messages: [{ role: "user", content: "Hi" }], n: 1, logprobs: false, presence_penalty: 0 })).not.toThrow();
  });
});
