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
    expect(Object.keys(validateRequestBody("post /api/policies", { scope: "organization", scope_id: "org_1", guardrails: { rules: [{ type: "secrets", action: "explode" }] } }))).toEqual(["guardrails.rules[0]"]);
  });

  it("has nothing to check for operations without a body", () => {
    expect(validateRequestBody("delete /api/api-keys/{api_key_id}", undefined)).toEqual({});
  });
});
