import { describe, expect, it } from "vitest";
import { applyInputGuardrails } from "./apply-input-guardrails.js";
import { compileGuardrails } from "./compile-guardrails.js";
import { extractTextSegments } from "./extract-text-segments.js";
import { parseGuardrailsConfig } from "./guardrails-config.js";

const redactPii = compileGuardrails(parseGuardrailsConfig({ rules: [{ type: "pii", action: "redact" }] }) ?? { rules: [] });
const card = "4111 1111 1111 1111";

describe("extractTextSegments", () => {
  it("finds the texts of OpenAI chat messages with their paths", () => {
    const body = {
      model: "m",
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: "https://x" } }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{\"a\":1}" } }] },
      ],
    };
    expect(extractTextSegments(body, "openai_chat")).toEqual([
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
    expect(extractTextSegments(body, "anthropic_messages").map((segment) => [segment.path.join("."), segment.text])).toEqual([
      ["system.0.text", "sys"],
      ["messages.0.content", "plain"],
      ["messages.1.content.0.input.query", "q"],
      ["messages.1.content.0.input.nested.0", "x"],
      ["messages.2.content.0.content.0.text", "result"],
    ]);
  });

  it("finds every string of a decision request except the model", () => {
    const body = { model: "p/v/m", state: { note: "s", list: ["a"] }, questions: { ok: { type: "noul", question: "q?" } } };
    expect(extractTextSegments(body, "decision").map((segment) => segment.path.join("."))).toEqual([
      "state.note",
      "state.list.0",
      "questions.ok.type",
      "questions.ok.question",
    ]);
  });
});

describe("applyInputGuardrails", () => {
  it("writes redactions back into a copy of the body", () => {
    const body = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: `card ${card}` }] }] };
    const result = applyInputGuardrails({ guardrails: redactPii, body, format: "openai_chat" });
    expect(result.redacted).toBe(true);
    expect(result.body).toEqual({ model: "m", messages: [{ role: "user", content: [{ type: "text", text: "card [REDACTED:payment_card]" }] }] });
    expect(body.messages[0]?.content[0]?.text).toBe(`card ${card}`);
  });

  it("redacts decision state strings and returns the same body when nothing matched", () => {
    const body = { model: "m", state: `ssn 123-45-6789`, questions: { ok: { type: "noul" } } };
    expect(applyInputGuardrails({ guardrails: redactPii, body, format: "decision" }).body).toEqual({ ...body, state: "ssn [REDACTED:us_ssn]" });
    const clean = { model: "m", state: "fine", questions: {} };
    expect(applyInputGuardrails({ guardrails: redactPii, body: clean, format: "decision" }).body).toBe(clean);
  });

  it("returns the block error and flags", () => {
    const guardrails = compileGuardrails(
      parseGuardrailsConfig({
        rules: [
          { type: "blocked_terms", name: "watch", action: "flag", terms: ["merger"] },
          { type: "secrets", name: "keys", action: "block" },
        ],
      }) ?? { rules: [] },
    );
    expect(applyInputGuardrails({ guardrails, body: { system: "the merger", messages: [] }, format: "anthropic_messages" }).flags).toEqual(["watch"]);
    const blocked = applyInputGuardrails({ guardrails, body: { messages: [{ role: "user", content: "AKIAIOSFODNN7EXAMPLE" }] }, format: "anthropic_messages" });
    expect(blocked.blocked?.details?.guardrail).toBe("keys");
  });
});
