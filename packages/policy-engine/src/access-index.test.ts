import { describe, expect, it } from "vitest";
import { caller, organizationId, policy, route, snapshot, standardConnections } from "./__fixtures__/snapshot.js";
import { compileAccessIndex } from "./access-index.js";
import { guardrailsForCaller } from "./guardrails-for-caller.js";
import { listAllowedModels } from "./list-allowed-models.js";
import { resolveModel } from "./resolve-model.js";

const secretsRule = { rules: [{ type: "secrets", name: "org-secrets", action: "block" }] };

describe("AccessIndex policy chains", () => {
  it("gives keys whose scopes carry the same policies one chain, compiled guardrails and model list", () => {
    const index = compileAccessIndex(
      snapshot({
        connections: standardConnections(),
        routes: [route({ alias: "fast", targets: [{ model: "openai/openai/gpt-4o-mini", weight: 1 }] })],
        policies: [policy({ scope: "organization", guardrails: secretsRule }), policy({ scope: "project", deny: ["anthropic/**"] })],
      }),
    );
    const first = { ...caller, apiKeyId: "key_a" };
    const second = { ...caller, apiKeyId: "key_b" };
    expect(index.chainOf(first)).toBe(index.chainOf(second));
    const guardrails = guardrailsForCaller({ index, ...first });
    expect(guardrailsForCaller({ index, ...second })).toBe(guardrails);
    expect(guardrails.checkInput(["AKIAIOSFODNN7EXAMPLE"]).blocked?.details?.guardrail).toBe("org-secrets");
    expect(listAllowedModels({ index, ...second })).toBe(listAllowedModels({ index, ...first }));
    expect(resolveModel({ index, ...second, requestedModel: "fast" })).toBe(resolveModel({ index, ...first, requestedModel: "fast" }));
  });

  it("gives a key with its own policy, or a key of another project, a chain of its own", () => {
    const index = compileAccessIndex(
      snapshot({
        connections: standardConnections(),
        policies: [
          policy({ scope: "organization", guardrails: secretsRule }),
          policy({ scope: "project", deny: ["anthropic/**"] }),
          policy({ scope: "key", scopeId: "key_own", deny: ["openai/openai/gpt-4o"], guardrails: { rules: [{ type: "pii", name: "key-pii", action: "redact" }] } }),
        ],
      }),
    );
    const shared = index.chainOf({ ...caller, apiKeyId: "key_shared" });
    const own = index.chainOf({ ...caller, apiKeyId: "key_own" });
    const otherProject = index.chainOf({ ...caller, projectId: "project_other", apiKeyId: "key_elsewhere" });
    expect(new Set([shared, own, otherProject]).size).toBe(3);
    expect(own.levels.map((level) => level.scope)).toEqual(["key", "project", "organization"]);
    expect(otherProject.levels.map((level) => level.scope)).toEqual(["organization"]);
    expect(guardrailsForCaller({ index, ...caller, apiKeyId: "key_own" }).checkInput(["mail a@example.com"]).value).toEqual(["mail [REDACTED:email]"]);
    expect(guardrailsForCaller({ index, ...caller, apiKeyId: "key_shared" }).checkInput(["mail a@example.com"]).value).toEqual(["mail a@example.com"]);
    expect(resolveModel({ index, ...caller, apiKeyId: "key_own", requestedModel: "openai/openai/gpt-4o" }).kind).toBe("denied");
    expect(resolveModel({ index, ...caller, apiKeyId: "key_shared", requestedModel: "openai/openai/gpt-4o" }).kind).toBe("target");
    expect(resolveModel({ index, ...caller, apiKeyId: "key_shared", requestedModel: "anthropic/anthropic/claude-sonnet-4" }).kind).toBe("denied");
    expect(resolveModel({ index, ...caller, projectId: "project_other", requestedModel: "anthropic/anthropic/claude-sonnet-4" }).kind).toBe("target");
  });

  it("keeps one chain per organization for callers without policies", () => {
    const index = compileAccessIndex(snapshot({ connections: standardConnections() }));
    const chain = index.chainOf(caller);
    expect(chain.levels).toEqual([]);
    expect(index.chainOf({ ...caller, projectId: "project_2", apiKeyId: "key_2" })).toBe(chain);
    expect(index.chainOf({ organizationId: "org_other", projectId: "project_2", apiKeyId: "key_2" })).not.toBe(chain);
  });

  it("does not grow with the number of keys: 10,000 keys on one chain make one chain", () => {
    const index = compileAccessIndex(snapshot({ policies: [policy({ scope: "project", deny: ["x/**"] })] }));
    const chains = new Set(Array.from({ length: 10_000 }, (_, position) => index.chainOf({ organizationId, projectId: caller.projectId, apiKeyId: `key_${position}` })));
    expect(chains.size).toBe(1);
  });
});

describe("AccessIndex.chainCache", () => {
  it("evicts the least recently used entry when full, keeping entries read since", () => {
    const index = compileAccessIndex(snapshot({ version: "lru" }), { chainCacheEntries: 3 });
    const cache = index.chainCache(caller);
    const values = { a: {}, b: {}, c: {}, d: {} };
    cache.set("a", values.a);
    cache.set("b", values.b);
    cache.set("c", values.c);
    expect(cache.get("a")).toBe(values.a); // a is now the most recently used; b the least
    cache.set("d", values.d);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(values.a);
    expect(cache.get("c")).toBe(values.c);
    expect(cache.get("d")).toBe(values.d);
  });

  it("keeps the entries of different chains apart", () => {
    const index = compileAccessIndex(snapshot({ policies: [policy({ scope: "key", deny: ["x/**"] })] }));
    const own = index.chainCache(caller);
    const other = index.chainCache({ ...caller, apiKeyId: "key_other" });
    own.set("entry", { owner: "own" });
    expect(other.get("entry")).toBeUndefined();
    expect(index.chainCache({ ...caller }).get("entry")).toEqual({ owner: "own" });
  });

  it("keeps resolving correctly when its entries are evicted", () => {
    const index = compileAccessIndex(snapshot({ connections: standardConnections(), version: "small" }), { chainCacheEntries: 1 });
    const first = resolveModel({ index, ...caller, requestedModel: "openai/openai/gpt-4o" });
    resolveModel({ index, ...caller, requestedModel: "openai/openai/gpt-4o-mini" });
    const again = resolveModel({ index, ...caller, requestedModel: "openai/openai/gpt-4o" });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe("compileAccessIndex with the previous index", () => {
  it("reuses the compilation of unchanged policy rows and compiles a changed one alone", () => {
    const kept = policy({ scope: "organization", guardrails: secretsRule });
    const broken = policy({ scope: "key", guardrails: { rules: [{ type: "regex", name: "x", action: "block", pattern: "(a+)+" }] } });
    const before = policy({ scope: "project", deny: ["anthropic/**"] });
    const previous = compileAccessIndex(snapshot({ version: "v1", policies: [kept, broken, before] }));
    const after = { ...before, deny: ["openai/**"] };
    const next = compileAccessIndex(snapshot({ version: "v2", connections: standardConnections(), policies: [kept, broken, after] }), { previous });

    const [, projectLevel, organizationLevel] = next.chainOf(caller).levels;
    expect(organizationLevel!.policies[0]).toBe(previous.chainOf(caller).levels[2]!.policies[0]);
    expect(projectLevel!.policies[0]!.policy).toBe(after);
    expect(next.configurationErrors).toEqual([{ policyId: broken.id, message: expect.stringContaining("nested quantifiers") }]);
    const other = { ...caller, apiKeyId: "key_other" };
    expect(resolveModel({ index: next, ...other, requestedModel: "openai/openai/gpt-4o" }).kind).toBe("denied");
    expect(resolveModel({ index: next, ...other, requestedModel: "anthropic/anthropic/claude-sonnet-4" }).kind).toBe("target");
  });
});
