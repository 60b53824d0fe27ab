import { describe, expect, it } from "vitest";
import { mcpResultsFormat } from "@gateway/provider-adapters";
import { caller, policy, snapshot, standardConnections } from "./__fixtures__/snapshot.js";
import { compileAccessIndex } from "./access-index.js";
import type { AccessPolicy } from "./access-snapshot.js";
import { evaluateMcpAccess, mcpAccessDeniedError } from "./evaluate-mcp-access.js";
import { applyInputGuardrails } from "./apply-input-guardrails.js";
import { compileGuardrails } from "./compile-guardrails.js";
import { parseGuardrailsConfig } from "./guardrails-config.js";
import { mcpPolicySubject } from "./mcp-policy-subject.js";

function decide(policies: AccessPolicy[], subject: { server: string; kind: "tool" | "prompt" | "resource"; name: string }) {
  const index = compileAccessIndex(snapshot({ connections: standardConnections(), policies }));
  return evaluateMcpAccess({ index, ...caller, ...subject });
}

const createIssue = { server: "tickets", kind: "tool", name: "create_issue" } as const;
const deleteIssue = { server: "tickets", kind: "tool", name: "delete_issue" } as const;

describe("MCP access through the model policy resolver", () => {
  it("names tools, prompts and resources apart from each other and from models", () => {
    expect(mcpPolicySubject(createIssue)).toBe("mcp:tickets/create_issue");
    expect(mcpPolicySubject({ server: "tickets", kind: "prompt", name: "triage" })).toBe("mcp:tickets/prompts/triage");
    expect(mcpPolicySubject({ server: "docs", kind: "resource", name: "file:///a/b.md" })).toBe("mcp:docs/resources/file:///a/b.md");
  });

  it("allows everything without policies, and denies by a key's deny glob over one server's tools", () => {
    expect(decide([], createIssue).allowed).toBe(true);
    const deny = policy({ scope: "key", deny: ["mcp:tickets/delete_*"] });
    expect(decide([deny], createIssue).allowed).toBe(true);
    expect(decide([deny], deleteIssue)).toEqual({
      allowed: false,
      rule: { effect: "deny", policyId: deny.id, scope: "key", scopeId: caller.apiKeyId, pattern: "mcp:tickets/delete_*" },
    });
  });

  it("denies MCP subjects an allow list does not name (fail closed), and `*` over aliases never matches them", () => {
    const modelsOnly = policy({ scope: "organization", allow: ["openai/**", "*"] });
    expect(decide([modelsOnly], createIssue)).toMatchObject({ allowed: false, rule: { effect: "not_in_allow_list" } });
    const withTools = policy({ scope: "organization", allow: ["openai/**", "mcp:tickets/*"] });
    expect(decide([withTools], createIssue).allowed).toBe(true);
    // `mcp:tickets/*` is the tools only: prompts and resources need `mcp:tickets/**`.
    expect(decide([withTools], { server: "tickets", kind: "prompt", name: "triage" }).allowed).toBe(false);
    expect(decide([policy({ scope: "organization", allow: ["mcp:tickets/**"] })], { server: "tickets", kind: "resource", name: "file:///x" }).allowed).toBe(true);
  });

  it("lets a project's allow override an organization's deny, as for models", () => {
    const organizationDeny = policy({ scope: "organization", deny: ["mcp:**"] });
    const projectAllow = policy({ scope: "project", allow: ["mcp:tickets/create_issue"] });
    expect(decide([organizationDeny, projectAllow], createIssue).allowed).toBe(true);
    expect(decide([organizationDeny, projectAllow], deleteIssue).rule).toMatchObject({ effect: "deny", scope: "organization" });
  });

  it("builds a 403 tool_not_allowed that names the subject and the rule", () => {
    const deny = policy({ scope: "key", deny: ["mcp:tickets/delete_*"] });
    const error = mcpAccessDeniedError({ ...deleteIssue, decision: decide([deny], deleteIssue) });
    expect(error).toMatchObject({ code: "tool_not_allowed", status: 403, details: { subject: "mcp:tickets/delete_issue", rule: { effect: "deny", pattern: "mcp:tickets/delete_*" } } });
  });
});

describe("input guardrails over MCP call arguments", () => {
  it("checks every string inside the arguments and writes redactions back, leaving the names alone", () => {
    const config = parseGuardrailsConfig({ rules: [{ type: "pii", action: "redact", detectors: ["email"] }] });
    if (!config) throw new Error("no config");
    const guardrails = compileGuardrails(config);
    const body = { server: "tickets", name: "create_issue@example.com", arguments: { title: "Mail jane@example.com", labels: ["a@b.co", 3], nested: { note: "none" } } };
    const result = applyInputGuardrails({ guardrails, body, format: mcpResultsFormat });
    expect(result.redacted).toBe(true);
    expect(result.body).toEqual({
      server: "tickets",
      name: "create_issue@example.com",
      arguments: { title: "Mail [REDACTED:email]", labels: ["[REDACTED:email]", 3], nested: { note: "none" } },
    });
    expect(body.arguments.title).toBe("Mail jane@example.com");
  });
});
