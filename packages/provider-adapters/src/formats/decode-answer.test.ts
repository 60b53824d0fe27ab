import { describe, expect, it } from "vitest";
import { chatCompletionsFormat } from "./chat-completions/chat-completions-format.js";
import { messagesFormat } from "./messages/messages-format.js";
import { responsesFormat } from "./responses/responses-format.js";

describe("JSON answers in the parts vocabulary of streams", () => {
  it("reads a chat completion's reasoning, text, refusal, tool calls, finish and usage as parts", () => {
    const completion = {
      id: "chatcmpl-1",
      model: "gpt-4o-mini",
      choices: [
        { index: 0, message: { role: "assistant", reasoning_content: "think", content: "Hi", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{\"a\":1}" } }] }, finish_reason: "tool_calls" },
        { index: 1, message: { role: "assistant", content: null, refusal: "No." }, finish_reason: "function_call" },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2 },
    };
    const { parts, choices } = chatCompletionsFormat.decodeAnswer(completion);
    expect(choices).toBe(2);
    expect(parts.map((part) => part.type)).toEqual(["start", "reasoning-delta", "text-delta", "tool-call-start", "tool-call-delta", "tool-call-end", "finish", "text-delta", "finish", "usage", "end"]);
    expect(parts[0]).toEqual({ type: "start", id: "chatcmpl-1", model: "gpt-4o-mini" });
    expect(parts[3]).toEqual({ type: "tool-call-start", choice: 0, toolIndex: 0, id: "c1", name: "f" });
    expect(parts[7]).toEqual({ type: "text-delta", choice: 1, text: "No.", refusal: true });
    expect(parts[8]).toEqual({ type: "finish", choice: 1, reason: "tool_calls", raw: "function_call" });
    expect(parts[9]).toMatchObject({ type: "usage", usage: { inputTokens: 3, outputTokens: 2 } });
  });

  it("derives a chat completion's guardrail texts from its parts: visible text rewritable, arguments checked only, never the refusal", () => {
    const completion = { choices: [{ message: { content: "Hi", refusal: "No.", tool_calls: [{ id: "c1", function: { name: "f", arguments: "{}" } }] } }] };
    expect(chatCompletionsFormat.answerTexts(completion)).toEqual([
      { path: ["choices", 0, "message", "content"], text: "Hi" },
      { path: ["choices", 0, "message", "tool_calls", 0, "function", "arguments"], text: "{}", rewritable: false },
    ]);
  });

  it("reads a message's text, thinking and tool_use blocks with their block index; tool input as its JSON", () => {
    const message = {
      id: "msg_1",
      model: "claude",
      content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Looking." }, { type: "tool_use", id: "t1", name: "weather", input: { city: "Paris" } }, { type: "web_search_tool_result" }],
      stop_reason: "tool_use",
      usage: { input_tokens: 5, output_tokens: 1 },
    };
    const decoded = messagesFormat.decodeAnswer(message);
    expect(decoded.parts).toEqual([
      { type: "start", id: "msg_1", model: "claude" },
      { type: "reasoning-delta", choice: 0, block: 0, text: "hmm" },
      { type: "text-delta", choice: 0, block: 1, text: "Looking." },
      { type: "tool-call-start", choice: 0, block: 2, toolIndex: 0, id: "t1", name: "weather" },
      { type: "tool-call-delta", choice: 0, toolIndex: 0, argumentsDelta: "{\"city\":\"Paris\"}" },
      { type: "tool-call-end", choice: 0, toolIndex: 0 },
      { type: "finish", choice: 0, reason: "tool_calls", raw: "tool_use" },
      expect.objectContaining({ type: "usage" }),
      { type: "end" },
    ]);
    expect(messagesFormat.answerTexts(message)).toEqual([
      { path: ["content", 1, "text"], text: "Looking." },
      { path: ["content", 2, "input"], text: "{\"city\":\"Paris\"}", rewritable: false },
    ]);
    expect(messagesFormat.answerMessages(message)).toEqual([
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "hmm" },
          { type: "text", content: "Looking." },
          { type: "tool_call", id: "t1", name: "weather", arguments: { city: "Paris" } },
          { type: "web_search_tool_result" },
        ],
        finish_reason: "tool_use",
      },
    ]);
  });

  it("reads a response object's items; an incomplete one finishes with length and its reason as raw", () => {
    const response = {
      id: "resp_1",
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [
        { type: "message", content: [{ type: "output_text", text: "Par" }, { type: "refusal", refusal: "no" }] },
        { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" },
      ],
    };
    const { parts } = responsesFormat.decodeAnswer(response);
    expect(parts.map((part) => part.type)).toEqual(["start", "text-delta", "tool-call-start", "tool-call-delta", "tool-call-end", "finish", "end"]);
    expect(parts[5]).toEqual({ type: "finish", choice: 0, reason: "length", raw: "max_output_tokens" });
    expect(responsesFormat.answerTexts(response)).toEqual([
      { path: ["output", 0, "content", 0, "text"], text: "Par" },
      { path: ["output", 1, "arguments"], text: "{}", rewritable: false },
    ]);
    expect(responsesFormat.decodeAnswer({ status: "in_progress", output: [] }).parts.map((part) => part.type)).toEqual(["start", "finish"]);
  });

  it("has no parts, texts or messages for a body that is not an answer of the format", () => {
    expect(chatCompletionsFormat.decodeAnswer("text").parts).toEqual([]);
    expect(chatCompletionsFormat.answerMessages({ object: "list" })).toBeNull();
    expect(messagesFormat.answerTexts(null)).toEqual([]);
  });
});
