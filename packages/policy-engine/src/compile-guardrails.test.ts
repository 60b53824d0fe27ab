import { describe, expect, it } from "vitest";
import { regexEvaluationWindowCharacters } from "./compiled-guardrail-rule.js";
import { compileGuardrails } from "./compile-guardrails.js";
import { parseGuardrailsConfig, type GuardrailsConfigInput } from "./guardrails-config.js";

function compile(input: GuardrailsConfigInput) {
  const config = parseGuardrailsConfig(input);
  if (!config) throw new Error("no config");
  return compileGuardrails(config);
}

const card = "4111 1111 1111 1111";

describe("compileGuardrails", () => {
  it("blocks with guardrail_blocked naming the guardrail and never echoing the match", () => {
    const guardrails = compile({ rules: [{ type: "pii", name: "no-cards", action: "block", detectors: ["payment_card"] }] });
    const result = guardrails.checkInput(["hello", `my card is ${card}`]);
    expect(result.blocked?.code).toBe("guardrail_blocked");
    expect(result.blocked?.status).toBe(403);
    expect(result.blocked?.details).toEqual({ guardrail: "no-cards", type: "pii", stage: "input", kind: "payment_card" });
    const rendered = JSON.stringify({ message: result.blocked?.message, details: result.blocked?.details });
    expect(rendered).toContain("no-cards");
    expect(rendered).not.toContain("4111");
    expect(guardrails.checkInput(["hello"]).blocked).toBeNull();
  });

  it("redacts matches in place with [REDACTED:<kind>] and leaves other texts untouched", () => {
    const guardrails = compile({ rules: [{ type: "pii", action: "redact" }, { type: "secrets", action: "redact" }] });
    const result = guardrails.checkInput([
      `card ${card}, mail a.b@example.com, key AKIAIOSFODNN7EXAMPLE.`,
      "nothing here",
    ]);
    expect(result).toEqual({
      value: ["card [REDACTED:payment_card], mail [REDACTED:email], key [REDACTED:aws_access_key_id].", "nothing here"],
      flags: [],
      redacted: true,
      blocked: null,
    });
  });

  it("flags without changing the text, once per guardrail name", () => {
    const guardrails = compile({
      rules: [
        { type: "blocked_terms", name: "codename", action: "flag", terms: ["Project Falcon"] },
        { type: "pii", name: "pii-watch", action: "flag", detectors: ["email"] },
      ],
    });
    const texts = ["about PROJECT falcon and project falcon", "x@y.io", "nothing"];
    expect(guardrails.checkInput(texts)).toEqual({ value: texts, flags: ["codename", "pii-watch"], redacted: false, blocked: null });
  });

  it("a block anywhere wins over redactions and flags", () => {
    const guardrails = compile({
      rules: [
        { type: "pii", action: "redact" },
        { type: "blocked_terms", name: "words", action: "flag", terms: ["hello"] },
        { type: "secrets", name: "keys", action: "block" },
      ],
    });
    const result = guardrails.checkInput([`hello ${card}`, "ghp_abcdefghijklmnopqrstuvwxyz0123456789"]);
    expect(result.blocked?.details?.guardrail).toBe("keys");
    expect(result.flags).toEqual([]);
  });

  it("matches blocked terms case-insensitively, on word boundaries unless told otherwise", () => {
    const whole = compile({ rules: [{ type: "blocked_terms", action: "redact", terms: ["cat"] }] });
    expect(whole.checkOutput("Cat, cats, concat, CAT_x, (cat)").value).toBe("[REDACTED:blocked_terms], cats, concat, CAT_x, ([REDACTED:blocked_terms])");
    const anywhere = compile({ rules: [{ type: "blocked_terms", name: "t", action: "redact", terms: ["cat"], wholeWord: false }] });
    expect(anywhere.checkOutput("concat").value).toBe("con[REDACTED:t]");
    const special = compile({ rules: [{ type: "blocked_terms", name: "t", action: "redact", terms: ["c++ (beta)"] }] });
    expect(special.checkOutput("we use C++ (beta) here").value).toBe("we use [REDACTED:t] here");
  });

  it("applies configured regular expressions with their flags", () => {
    const guardrails = compile({
      rules: [{ type: "regex", name: "ticket", action: "redact", pattern: "ticket-[0-9]{4,8}", flags: "i" }],
    });
    expect(guardrails.checkOutput("see TICKET-12345 and ticket-99").value).toBe("see [REDACTED:ticket] and ticket-99");
  });

  it("evaluates configured expressions in bounded windows and still finds matches across window edges", () => {
    const guardrails = compile({ rules: [{ type: "regex", name: "marker", action: "redact", pattern: "XY[0-9]{10}" }] });
    const edge = regexEvaluationWindowCharacters - 5;
    const text = `${"a".repeat(edge)}XY0123456789${"b".repeat(regexEvaluationWindowCharacters * 2)}XY9876543210`;
    const result = guardrails.checkOutput(text);
    expect(result.value).toBe(`${"a".repeat(edge)}[REDACTED:marker]${"b".repeat(regexEvaluationWindowCharacters * 2)}[REDACTED:marker]`);
  });

  it("enforces a maximum input size over all segments together", () => {
    const blocking = compile({ rules: [{ type: "max_input_characters", limit: 10 }] });
    expect(blocking.checkInput(["12345", "123456"]).blocked?.details).toMatchObject({ guardrail: "max_input_characters" });
    expect(blocking.checkInput(["12345", "12345"]).blocked).toBeNull();
    const flagging = compile({ rules: [{ type: "max_input_characters", name: "big", limit: 3, action: "flag" }] });
    expect(flagging.checkInput(["abcd"]).flags).toEqual(["big"]);
    expect(blocking.hasOutputRules).toBe(false);
  });

  it("applies rules to input, output or both as configured", () => {
    const guardrails = compile({
      rules: [
        { type: "blocked_terms", name: "in", action: "redact", terms: ["alpha"], appliesTo: "input" },
        { type: "blocked_terms", name: "out", action: "redact", terms: ["beta"], appliesTo: "output" },
      ],
    });
    expect(guardrails.checkInput(["alpha beta"]).value).toEqual(["[REDACTED:in] beta"]);
    expect(guardrails.checkOutput("alpha beta").value).toBe("alpha [REDACTED:out]");
  });

  it("merges several configurations (all rules apply) and computes the hold-back from output rules", () => {
    const first = parseGuardrailsConfig({ rules: [{ type: "pii", action: "redact", detectors: ["us_ssn"] }] });
    const second = parseGuardrailsConfig({ rules: [{ type: "secrets", action: "redact", detectors: ["aws_access_key_id"] }] });
    if (!first || !second) throw new Error("no config");
    expect(compileGuardrails(first).outputHoldbackCharacters).toBe(12);
    const merged = compileGuardrails([first, second]);
    expect(merged.outputHoldbackCharacters).toBe(21);
    expect(merged.checkOutput("123-45-6789 AKIAIOSFODNN7EXAMPLE").value).toBe("[REDACTED:us_ssn] [REDACTED:aws_access_key_id]");
    expect(compile({ rules: [{ type: "pii", action: "flag" }] }).outputHoldbackCharacters).toBe(64);
    expect(compile({ rules: [{ type: "pii", action: "flag" }], outputHoldbackCharacters: 100 }).outputHoldbackCharacters).toBe(100);
  });
});
