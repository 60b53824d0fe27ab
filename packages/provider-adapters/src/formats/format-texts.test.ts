import { describe, expect, it } from "vitest";
import { chatCompletionsFormat } from "./chat-completions/chat-completions-format.js";
import { decisionsFormat } from "./decisions/decisions-format.js";
import { messagesFormat } from "./messages/messages-format.js";

describe("request texts of the format modules", () => {
  it("finds the texts of OpenAI chat messages with their paths", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: "https://x" } }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{\"a\":1}" } }] },
      ],
    };
    expect(chatCompletionsFormat.requestTexts(body)).toEqual([
      { path: ["messages", 0, "content"], text: "be brief" },
      { path: ["messages", 1, "content", 0, "text"], text: "hi" },
      { path: ["messages", 2, "tool_calls", 0, "function", "arguments"], text: "{\"a\":1}" },
    ]);
  });

  it("finds the texts of Anthropic messages (system, text, tool_result, tool_use input)", () => {
    const body = {
      model: "m",
      system: [{ type: "text", text: "sys" }],
      messages: [
        { role: "user", content: "plain" },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "n", input: { query: "q", nested: ["x"] } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: "result" }] }] },
      ],
    };
    expect(messagesFormat.requestTexts(body).map((segment) => [segment.path.join("."), segment.text])).toEqual([
      ["system.0.text", "sys"],
      ["messages.0.content", "plain"],
      ["messages.1.content.0.input.query", "q"],
      ["messages.1.content.0.input.nested.0", "x"],
      ["messages.2.content.0.content.0.text", "result"],
    ]);
  });

  it("finds every string of a decision request except the model", () => {
    const body = { model: "p/v/m", state: { note: "s", list: ["a"] }, questions: { ok: { type: "noul", question: "q?" } } };
    expect(decisionsFormat.requestTexts(body).map((segment) => segment.path.join("."))).toEqual([
      "state.note",
      "state.list.0",
      "questions.ok.type",
      "questions.ok.question",
    ]);
  });
});

