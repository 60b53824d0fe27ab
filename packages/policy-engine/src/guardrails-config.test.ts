import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { guardrailsConfigSchema, parseGuardrailsConfig } from "./guardrails-config.js";

describe("parseGuardrailsConfig", () => {
  it("returns null for no configuration and applies defaults", () => {
    expect(parseGuardrailsConfig(null)).toBeNull();
    expect(parseGuardrailsConfig(undefined)).toBeNull();
    expect(parseGuardrailsConfig({})).toEqual({ rules: [] });
    const parsed = parseGuardrailsConfig({ rules: [{ type: "pii", action: "redact" }] });
    expect(parsed?.rules[0]).toEqual({
      type: "pii",
      name: "pii",
      action: "redact",
      appliesTo: "both",
      detectors: ["email", "phone", "payment_card", "iban", "us_ssn"],
    });
  });

  it("rejects catastrophic regular expressions at configuration time, naming the field", () => {
    let error: unknown;
    try {
      parseGuardrailsConfig({ rules: [{ type: "regex", name: "bad", action: "block", pattern: "(a+)+$" }] });
    } catch (caught) {
      error = caught;
    }
    expect(GatewayError.isInstance(error)).toBe(true);
    expect((error as GatewayError).code).toBe("invalid_request");
    expect((error as GatewayError).param).toBe("guardrails.rules[0].pattern");
    expect((error as GatewayError).message).toContain("nested quantifiers");
  });

  it("rejects invalid expressions, unknown fields, detectors and actions", () => {
    const invalid = [
      { rules: [{ type: "regex", name: "x", action: "block", pattern: "[" }] },
      { rules: [{ type: "regex", name: "x", action: "block", pattern: "a", flags: "g" }] },
      { rules: [{ type: "pii", action: "redact", detectors: ["passport"] }] },
      { rules: [{ type: "secrets", action: "erase" }] },
      { rules: [{ type: "max_input_characters", limit: 10, action: "redact" }] },
      { rules: [{ type: "blocked_terms", action: "flag", terms: [] }] },
      { rules: [], extra: true },
      { rules: [{ type: "pii", action: "flag", name: "has space" }] },
    ];
    for (const value of invalid) expect(guardrailsConfigSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });
});
