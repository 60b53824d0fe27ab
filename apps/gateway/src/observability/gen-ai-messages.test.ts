import { describe, expect, it } from "vitest";
import { toGenAiInputMessages, toGenAiOutputMessages } from "./gen-ai-messages.js";

const parsed = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

describe("gen_ai messages of a Responses call", () => {
  it("reads the instructions and a text input as system and user messages", () => {
    expect(parsed(toGenAiInputMessages({ model: "m", instructions: "Be brief.", input: "Hello" }, "responses"))).toEqual([
      { role: "system", parts: [{ type: "text", content: "Be brief." }] },
      { role: "user", parts: [{ type: "text", content: "Hello" }] },
    ]);
  });

  it("reads input items: messages, function calls and their outputs; images are named, never copied", () => {
    const request = {
      model: "m",
      input: [
        { role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }, { type: "input_image", image_url: "data:image/png;base64,AAAA" }] },
        { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_1", output: "18 C" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "It is 18 C." }] },
        { type: "item_reference", id: "msg_1" },
      ],
    };
    expect(parsed(toGenAiInputMessages(request, "responses"))).toEqual([
      { role: "user", parts: [{ type: "text", content: "Weather in Paris?" }, { type: "input_image" }] },
      { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "weather", arguments: '{"city":"Paris"}' }] },
      { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "18 C" }] },
      { role: "assistant", parts: [{ type: "text", content: "It is 18 C." }] },
    ]);
  });

  it("reads the output items of a JSON answer as one assistant message with its finish reason", () => {
    const response = {
      object: "response",
      status: "completed",
      output: [
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "The user wants the weather." }] },
        { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Let me look.", annotations: [] }] },
        { type: "function_call", id: "fc_1", call_id: "call_2", name: "weather", arguments: "{}" },
      ],
    };
    expect(parsed(toGenAiOutputMessages(response))).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "The user wants the weather." },
          { type: "text", content: "Let me look." },
          { type: "tool_call", id: "call_2", name: "weather", arguments: "{}" },
        ],
        finish_reason: "completed",
      },
    ]);
    expect(parsed(toGenAiOutputMessages({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [] }))).toEqual([
      { role: "assistant", parts: [], finish_reason: "max_output_tokens" },
    ]);
  });

  it("reads a streamed answer's captured text", () => {
    expect(parsed(toGenAiOutputMessages({ text: "Hello there." }))).toEqual([{ role: "assistant", parts: [{ type: "text", content: "Hello there." }] }]);
  });

  it("gives nothing for a request without input, and does not read an embeddings input as messages", () => {
    expect(toGenAiInputMessages({ model: "m" }, "responses")).toBeNull();
    expect(toGenAiInputMessages({ model: "m", input: "Say hello." }, "embeddings")).toBeNull();
  });
});

describe("gen_ai messages of chat completions and messages calls", () => {
  it("reads a chat request's messages with their tool calls, and an Anthropic request's system", () => {
    const request = {
      model: "m",
      messages: [
        { role: "user", content: [{ type: "text", text: "Weather?" }, { type: "image_url", image_url: { url: "data:," } }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }] },
      ],
    };
    expect(parsed(toGenAiInputMessages(request, "chat_completions"))).toEqual([
      { role: "user", parts: [{ type: "text", content: "Weather?" }, { type: "image_url" }] },
      { role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "weather", arguments: "{}" }] },
    ]);
    expect(parsed(toGenAiInputMessages({ system: "Be brief.", messages: [{ role: "user", content: "Hi" }] }, "messages"))).toEqual([
      { role: "system", parts: [{ type: "text", content: "Be brief." }] },
      { role: "user", parts: [{ type: "text", content: "Hi" }] },
    ]);
  });

  it("reads a chat completion's choices and an Anthropic message's content blocks with their finish reasons", () => {
    const completion = { choices: [{ index: 0, message: { role: "assistant", content: "Sunny." }, finish_reason: "stop" }] };
    expect(parsed(toGenAiOutputMessages(completion))).toEqual([{ role: "assistant", parts: [{ type: "text", content: "Sunny." }], finish_reason: "stop" }]);
    const message = { type: "message", stop_reason: "tool_use", content: [{ type: "text", text: "Looking." }, { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } }] };
    expect(parsed(toGenAiOutputMessages(message))).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "Looking." }, { type: "tool_call", id: "t1", name: "weather", arguments: { city: "Paris" } }], finish_reason: "tool_use" },
    ]);
  });
});
