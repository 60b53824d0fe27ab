import { chatCompletionsFormat, decisionsFormat, messagesFormat } from "@gateway/provider-adapters";
import { describe, expect, it } from "vitest";
import { applyInputGuardrails } from "./apply-input-guardrails.js";
import { compileGuardrails } from "./compile-guardrails.js";
import { parseGuardrailsConfig } from "./guardrails-config.js";

const redactPii = compileGuardrails(parseGuardrailsConfig({ rules: [{ type: "pii", action: "redact" }] }) ?? { rules: [] });
const card = "4111 1111 1111 1111";

describe("applyInputGuardrails", () => {
  it("writes redactions back into a copy of the body", () => {
    const body = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: `card ${card}` }] }] };
    const result = applyInputGuardrails({ guardrails: redactPii, body, format: chatCompletionsFormat });
    expect(result.redacted).toBe(true);
    expect(result.body).toEqual({ model: "m", messages: [{ role: "user", content: [{ type: "text", text: "card [REDACTED:payment_card]" }] }] });
    expect(body.messages[0]?.content[0]?.text).toBe(`card ${card}`);
  });

  it("redacts decision state strings and returns the same body when nothing matched", () => {
    const body = { model: "m", state: `ssn 123-45-6789`, questions: { ok: { type: "noul" } } };
    expect(applyInputGuardrails({ guardrails: redactPii, body, format: decisionsFormat }).body).toEqual({ ...body, state: "ssn [REDACTED:us_ssn]" });
    const clean = { model: "m", state: "fine", questions: {} };
    expect(applyInputGuardrails({ guardrails: redactPii, body: clean, format: decisionsFormat }).body).toBe(clean);
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
    expect(applyInputGuardrails({ guardrails, body: { system: "the merger", messages: [] }, format: messagesFormat }).flags).toEqual(["watch"]);
    const blocked = applyInputGuardrails({ guardrails, body: { messages: [{ role: "user", content: "AKIAIOSFODNN7EXAMPLE" }] }, format: messagesFormat });
    expect(blocked.blocked?.details?.guardrail).toBe("keys");
  });
});
