import { describe, expect, it } from "vitest";
import { caller, policy, snapshot } from "./__fixtures__/snapshot.js";
import { compileAccessIndex } from "./access-index.js";
import { guardrailsForCaller } from "./guardrails-for-caller.js";

describe("guardrailsForCaller", () => {
  it("enforces the guardrails of every scope of the caller together", () => {
    const index = compileAccessIndex(
      snapshot({
        policies: [
          policy({ scope: "organization", guardrails: { rules: [{ type: "secrets", name: "org-keys", action: "block" }] } }),
          policy({ scope: "key", guardrails: { rules: [{ type: "pii", name: "key-pii", action: "redact" }] } }),
          policy({ scope: "project", scopeId: "project_other", guardrails: { rules: [{ type: "blocked_terms", action: "block", terms: ["hi"] }] } }),
        ],
      }),
    );
    const guardrails = guardrailsForCaller({ index, ...caller });
    expect(guardrails.checkInput(["hi 123-45-6789"]).value).toEqual(["hi [REDACTED:us_ssn]"]);
    expect(guardrails.checkInput(["AKIAIOSFODNN7EXAMPLE"]).blocked?.details?.guardrail).toBe("org-keys");
    expect(guardrailsForCaller({ index, ...caller })).toBe(guardrails);
  });

  it("fails closed when a policy's guardrails JSON is invalid, and reports it on the index", () => {
    const broken = policy({ scope: "project", guardrails: { rules: [{ type: "regex", name: "x", action: "block", pattern: "(a+)+" }] } });
    const index = compileAccessIndex(snapshot({ policies: [broken] }));
    expect(index.configurationErrors).toEqual([{ policyId: broken.id, message: expect.stringContaining("nested quantifiers") }]);
    const guardrails = guardrailsForCaller({ index, ...caller });
    expect(guardrails.checkInput(["anything"]).blocked?.code).toBe("internal_error");
    expect(guardrails.createOutputScanner().push("x").blocked?.code).toBe("internal_error");
    expect(guardrailsForCaller({ index, ...caller, projectId: "project_other" }).checkInput(["x"]).blocked).toBeNull();
  });
});
