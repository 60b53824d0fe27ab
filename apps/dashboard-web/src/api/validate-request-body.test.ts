import { describe, expect, it } from "vitest";
import { validateRequestBody } from "./validate-request-body.js";

describe("validateRequestBody (the API's own request schemas, from its OpenAPI document)", () => {
  it("accepts a valid body", () => {
    expect(validateRequestBody("post /api/api-keys", { name: "ci", project_id: "proj_1" })).toEqual({});
    expect(validateRequestBody("post /api/budgets", { name: "monthly", scope: "organization", scope_id: "org_1", amount_micros: 25_000_000, period: "month", mode: "soft" })).toEqual({});
  });

  it("reports each invalid field under the API's param path, in plain words", () => {
    expect(validateRequestBody("post /api/api-keys", { name: "", project_id: "bad id!" })).toEqual({
      name: "Required.",
      project_id: "Not in the expected format.",
    });
    expect(validateRequestBody("post /api/budgets", { name: "b", scope: "galaxy", scope_id: "x", amount_micros: 1.5, period: "month", mode: "soft" })).toMatchObject({
      scope: "Choose one of: organization, project, key, team.",
      amount_micros: "Enter a whole number.",
    });
    expect(validateRequestBody("post /api/routes", { alias: "fast", targets: [{ model: "not-qualified" }] })).toEqual({ "targets[0].model": "Not in the expected format." });
    expect(validateRequestBody("post /api/invitations", { email: "not-an-email" })).toEqual({ email: "Enter an email address." });
  });

  it("validates guardrail rules with the policy engine's schema", () => {
    expect(validateRequestBody("post /api/policies", { scope: "organization", scope_id: "org_1", guardrails: { rules: [{ type: "secrets", action: "block" }] } })).toEqual({});
    // The rule's type picks the option it meant: its errors land on the rule's own fields.
    expect(validateRequestBody("post /api/policies", { scope: "organization", scope_id: "org_1", guardrails: { rules: [{ type: "secrets", action: "explode" }] } })).toEqual({
      "guardrails.rules[0].action": "Choose one of: block, redact, flag.",
    });
    expect(validateRequestBody("patch /api/policies/{policy_id}", { guardrails: { rules: [{ type: "regex", action: "block", appliesTo: "both", pattern: "TICKET-[0-9]+" }] } })).toEqual({
      "guardrails.rules[0].name": "Required.",
    });
    expect(validateRequestBody("patch /api/policies/{policy_id}", { guardrails: { rules: [{ type: "secrets", action: "block" }, { type: "blocked_terms", action: "flag", terms: [] }] } })).toEqual({
      "guardrails.rules[1].terms": "Add at least 1.",
    });
    // A type no option has: the whole rule is "not a valid choice" (the form shows it under Type).
    expect(validateRequestBody("patch /api/policies/{policy_id}", { guardrails: { rules: [{ type: "telepathy", action: "block" }] } })).toEqual({
      "guardrails.rules[0]": "Not a valid choice.",
    });
  });

  it("has nothing to check for operations without a body", () => {
    expect(validateRequestBody("delete /api/api-keys/{api_key_id}", undefined)).toEqual({});
  });
});
