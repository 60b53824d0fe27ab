import { chatCompletionsFormat, mcpResultsFormat, messagesFormat, responsesFormat } from "@gateway/provider-adapters";
import { describe, expect, it } from "vitest";
import { applyOutputGuardrails } from "./apply-output-guardrails.js";
import { compileGuardrails } from "./compile-guardrails.js";
import { parseGuardrailsConfig } from "./guardrails-config.js";

const guardrails = compileGuardrails(
  parseGuardrailsConfig({
    rules: [
      { type: "pii", name: "mail", action: "redact", detectors: ["email"] },
      { type: "blocked_terms", name: "watch", action: "flag", terms: ["merger"] },
      { type: "blocked_terms", name: "stop", action: "block", terms: ["launch codes"] },
    ],
  }) ?? { rules: [] },
);
const mail = "jane@example.com";
const redacted = "[REDACTED:email]";

describe("applyOutputGuardrails over JSON answers, through the format modules' answer texts", () => {
  it("redacts chat completion message content, flags, and never rewrites tool call arguments", () => {
    const body = {
      id: "c",
      choices: [
        { index: 0, message: { role: "assistant", content: `write to ${mail} about the merger` }, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: null, tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: `{"to":"${mail}"}` } }] } },
      ],
    };
    const result = applyOutputGuardrails({ guardrails, body, format: chatCompletionsFormat });
    expect(result.flags).toEqual(["watch"]);
    expect(result.body.choices[0]?.message.content).toBe(`write to ${redacted} about the merger`);
    expect(result.body.choices[1]?.message.tool_calls?.[0]?.function.arguments).toBe(`{"to":"${mail}"}`);
    expect(body.choices[0]?.message.content).toContain(mail);
    const blocked = { choices: [{ message: { content: "ok", tool_calls: [{ function: { name: "f", arguments: '{"q":"the launch codes"}' } }] } }] };
    expect(applyOutputGuardrails({ guardrails, body: blocked, format: chatCompletionsFormat }).blocked?.details?.guardrail).toBe("stop");
  });

  it("redacts the text blocks of a message answer and blocks on tool_use input", () => {
    const body = { type: "message", content: [{ type: "text", text: `mail ${mail}` }, { type: "image", source: {} }] };
    expect(applyOutputGuardrails({ guardrails, body, format: messagesFormat }).body).toEqual({ ...body, content: [{ type: "text", text: `mail ${redacted}` }, { type: "image", source: {} }] });
    const toolUse = { content: [{ type: "tool_use", id: "t", name: "n", input: { text: "launch codes" } }] };
    expect(applyOutputGuardrails({ guardrails, body: toolUse, format: messagesFormat }).blocked?.details?.guardrail).toBe("stop");
  });

  it("redacts output_text parts of a response object, returns the same body when nothing matched", () => {
    const body = {
      object: "response",
      output: [
        { type: "function_call", call_id: "c", name: "f", arguments: `{"to":"${mail}"}` },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: `mail ${mail}`, annotations: [] }] },
      ],
    };
    const result = applyOutputGuardrails({ guardrails, body, format: responsesFormat });
    expect(result.body.output[0]).toEqual(body.output[0]);
    expect(result.body.output[1]).toEqual({ type: "message", role: "assistant", content: [{ type: "output_text", text: `mail ${redacted}`, annotations: [] }] });
    const clean = { output: [{ type: "message", content: [{ type: "output_text", text: "fine" }] }] };
    expect(applyOutputGuardrails({ guardrails, body: clean, format: responsesFormat }).body).toBe(clean);
  });

  it("redacts the texts of MCP tool results, prompts and resource reads, leaving binary content alone", () => {
    const body = {
      content: [
        { type: "text", text: mail },
        { type: "resource", resource: { uri: "r://x", text: mail } },
        { type: "image", data: mail, mimeType: "image/png" },
      ],
      structuredContent: { owner: { mail }, tags: [mail, 3] },
      messages: [{ role: "user", content: { type: "text", text: mail } }],
      contents: [{ uri: "r://y", text: mail }, { uri: "r://z", blob: mail }],
    };
    expect(applyOutputGuardrails({ guardrails, body, format: mcpResultsFormat }).body).toEqual({
      content: [
        { type: "text", text: redacted },
        { type: "resource", resource: { uri: "r://x", text: redacted } },
        { type: "image", data: mail, mimeType: "image/png" },
      ],
      structuredContent: { owner: { mail: redacted }, tags: [redacted, 3] },
      messages: [{ role: "user", content: { type: "text", text: redacted } }],
      contents: [{ uri: "r://y", text: redacted }, { uri: "r://z", blob: mail }],
    });
  });
});
