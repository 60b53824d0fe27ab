import { describe, expect, it } from "vitest";
import { caller, policy, snapshot, standardConnections } from "./__fixtures__/snapshot.js";
import { compileAccessIndex } from "./access-index.js";
import type { AccessPolicy } from "./access-snapshot.js";
import { evaluateModelPolicy } from "./evaluate-model-policy.js";

const gpt = "openai/openai/gpt-4o";
const claude = "anthropic/anthropic/claude-sonnet-4";

function decide(policies: AccessPolicy[], model: string, who = caller) {
  const index = compileAccessIndex(snapshot({ connections: standardConnections(), policies }));
  return evaluateModelPolicy({ index, ...who, model });
}

describe("evaluateModelPolicy", () => {
  it("allows everything when no policy applies", () => {
    expect(decide([], gpt)).toEqual({ allowed: true, rule: null });
  });

  it("denies by an organization deny pattern and names the rule", () => {
    const deny = policy({ scope: "organization", deny: ["openai/**"] });
    expect(decide([deny], gpt)).toEqual({
      allowed: false,
      rule: { effect: "deny", policyId: deny.id, scope: "organization", scopeId: "org_1", pattern: "openai/**" },
    });
    expect(decide([deny], claude).allowed).toBe(true);
  });

  it("lets a narrower scope's allow override a broader deny (project over organization)", () => {
    const organizationDeny = policy({ scope: "organization", deny: ["openai/**"] });
    const projectAllow = policy({ scope: "project", allow: ["openai/openai/gpt-4o"] });
    const decision = decide([organizationDeny, projectAllow], gpt);
    expect(decision.allowed).toBe(true);
    expect(decision.rule).toMatchObject({ effect: "allow", policyId: projectAllow.id, scope: "project" });
    // A model the project does not mention falls through to the organization's deny.
    expect(decide([organizationDeny, projectAllow], "openai/openai/gpt-4o-mini").rule).toMatchObject({
      effect: "deny",
      scope: "organization",
    });
  });

  it("lets a narrower scope's deny override a broader allow (key over project)", () => {
    const projectAllow = policy({ scope: "project", allow: ["**"] });
    const keyDeny = policy({ scope: "key", deny: ["anthropic/**"] });
    expect(decide([projectAllow, keyDeny], claude).rule).toMatchObject({ effect: "deny", scope: "key", policyId: keyDeny.id });
    expect(decide([projectAllow, keyDeny], gpt).rule).toMatchObject({ effect: "allow", scope: "project" });
  });

  it("within one scope, deny beats allow (also across two policies of that scope)", () => {
    const both = policy({ scope: "project", allow: ["openai/**"], deny: ["openai/openai/gpt-4o"] });
    expect(decide([both], gpt).rule).toMatchObject({ effect: "deny", policyId: both.id, pattern: "openai/openai/gpt-4o" });
    const allowOnly = policy({ scope: "key", allow: ["**"] });
    const denyOnly = policy({ scope: "key", deny: [gpt] });
    expect(decide([allowOnly, denyOnly], gpt).rule).toMatchObject({ effect: "deny", policyId: denyOnly.id });
  });

  it("denies a model no scope matches when some scope has an allow list", () => {
    const organizationAllow = policy({ scope: "organization", allow: ["anthropic/**"] });
    const projectDeny = policy({ scope: "project", deny: ["anthropic/anthropic/claude-haiku-4"] });
    expect(decide([organizationAllow, projectDeny], gpt)).toEqual({
      allowed: false,
      rule: { effect: "not_in_allow_list", policyIds: [organizationAllow.id] },
    });
    expect(decide([organizationAllow, projectDeny], claude).allowed).toBe(true);
  });

  it("allows a model no scope matches when no scope has an allow list", () => {
    const deny = policy({ scope: "key", deny: ["anthropic/**"] });
    expect(decide([deny], gpt)).toEqual({ allowed: true, rule: null });
  });

  it("applies only the caller's own project and key policies", () => {
    const otherKey = policy({ scope: "key", scopeId: "key_2", deny: ["**"] });
    const otherProject = policy({ scope: "project", scopeId: "project_2", deny: ["**"] });
    const otherOrganization = policy({ scope: "organization", organizationId: "org_2", scopeId: "org_2", deny: ["**"] });
    expect(decide([otherKey, otherProject, otherOrganization], gpt).allowed).toBe(true);
    expect(decide([otherKey], gpt, { ...caller, apiKeyId: "key_2" }).allowed).toBe(false);
  });

  it("matches aliases like models", () => {
    const deny = policy({ scope: "organization", deny: ["fast*"] });
    expect(decide([deny], "fast-chat").allowed).toBe(false);
    expect(decide([deny], "smart").allowed).toBe(true);
  });
});
