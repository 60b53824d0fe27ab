import { describe, expect, it } from "vitest";
import { caller, connection, policy, route, snapshot, standardConnections } from "./__fixtures__/snapshot.js";
import { compileAccessIndex } from "./access-index.js";
import type { AccessPolicy, AccessRoute } from "./access-snapshot.js";
import { resolveModel } from "./resolve-model.js";

function indexWith(parts: { policies?: AccessPolicy[]; routes?: AccessRoute[]; connections?: ReturnType<typeof standardConnections> }) {
  return compileAccessIndex(snapshot({ connections: parts.connections ?? standardConnections(), ...parts }));
}

describe("resolveModel", () => {
  it("resolves a provider-qualified model to its connection, asking the provider for <model> (no vendor segment)", () => {
    const index = indexWith({});
    const resolution = resolveModel({ index, ...caller, requestedModel: "anthropic/anthropic/claude-sonnet-4" });
    expect(resolution.kind).toBe("target");
    if (resolution.kind !== "target") return;
    expect(resolution.target.connection.name).toBe("anthropic");
    expect(resolution.target.connection.kind).toBe("anthropic");
    expect(resolution.target.qualifiedModel).toBe("anthropic/anthropic/claude-sonnet-4");
    expect(resolution.target.upstreamModel).toBe("claude-sonnet-4");
  });

  it("uses upstreamModelNames overrides for the upstream name, even one that keeps the vendor segment", () => {
    const resolution = resolveModel({ index: indexWith({}), ...caller, requestedModel: "openai/openai/gpt-4o-mini" });
    expect(resolution).toMatchObject({ kind: "target", target: { upstreamModel: "gpt-4o-mini", qualifiedModel: "openai/openai/gpt-4o-mini" } });
    // An aggregator that names models `<vendor>/<model>` itself is mapped explicitly.
    const aggregator = connection({ name: "router", models: ["openai/gpt-4o", "meta/llama-3"], upstreamModelNames: { "openai/gpt-4o": "openai/gpt-4o" } });
    const index = indexWith({ connections: [aggregator] });
    expect(resolveModel({ index, ...caller, requestedModel: "router/openai/gpt-4o" })).toMatchObject({ target: { upstreamModel: "openai/gpt-4o" } });
    expect(resolveModel({ index, ...caller, requestedModel: "router/meta/llama-3" })).toMatchObject({ target: { upstreamModel: "llama-3" } });
  });

  it("looks an unqualified model up on the X-Provider connection; a qualified model wins over the header", () => {
    const index = indexWith({});
    expect(resolveModel({ index, ...caller, requestedModel: "openai/gpt-4o", providerHeader: "openai" })).toMatchObject({
      kind: "target",
      target: { qualifiedModel: "openai/openai/gpt-4o" },
    });
    expect(
      resolveModel({ index, ...caller, requestedModel: "anthropic/anthropic/claude-haiku-4", providerHeader: "openai" }),
    ).toMatchObject({ kind: "target", target: { connection: { name: "anthropic" } } });
    const wrongProvider = resolveModel({ index, ...caller, requestedModel: "openai/gpt-4o", providerHeader: "anthropic" });
    expect(wrongProvider.kind === "denied" && wrongProvider.error.code).toBe("model_not_found");
  });

  it("answers 404 model_not_found for unknown models, unknown or disabled connections and unserved models", () => {
    const connections = [...standardConnections(), connection({ name: "off", enabled: false, models: ["openai/gpt-4o"] })];
    const index = indexWith({ connections });
    for (const requestedModel of [
      "nope",
      "openai/gpt-4o",
      "missing/openai/gpt-4o",
      "off/openai/gpt-4o",
      "openai/openai/gpt-5",
      "openai/anthropic/claude-sonnet-4",
      "",
      "x".repeat(2000),
    ]) {
      const resolution = resolveModel({ index, ...caller, requestedModel });
      expect(resolution.kind, requestedModel.slice(0, 40)).toBe("denied");
      if (resolution.kind !== "denied") continue;
      expect(resolution.error.code).toBe("model_not_found");
      expect(resolution.error.status).toBe(404);
      expect(resolution.error.message.length).toBeLessThan(400);
    }
  });

  it("does not resolve another organization's connections or aliases", () => {
    const index = indexWith({ routes: [route({ alias: "fast", targets: [{ model: "openai/openai/gpt-4o", weight: 1 }] })] });
    const other = { ...caller, organizationId: "org_2" };
    expect(resolveModel({ index, ...other, requestedModel: "openai/openai/gpt-4o" }).kind).toBe("denied");
    expect(resolveModel({ index, ...other, requestedModel: "fast" }).kind).toBe("denied");
  });

  it("answers 403 model_not_allowed naming the policy, scope and pattern", () => {
    const deny = policy({ scope: "project", deny: ["openai/**"] });
    const resolution = resolveModel({ index: indexWith({ policies: [deny] }), ...caller, requestedModel: "openai/openai/gpt-4o" });
    expect(resolution.kind).toBe("denied");
    if (resolution.kind !== "denied") return;
    expect(resolution.error.code).toBe("model_not_allowed");
    expect(resolution.error.status).toBe(403);
    expect(resolution.error.details).toEqual({
      model: "openai/openai/gpt-4o",
      rule: { effect: "deny", policyId: deny.id, scope: "project", scopeId: "project_1", pattern: "openai/**" },
    });
  });

  it("checks 404 before 403: an unknown model is not found even under deny-all", () => {
    const denyAll = policy({ scope: "organization", deny: ["**"] });
    const resolution = resolveModel({ index: indexWith({ policies: [denyAll] }), ...caller, requestedModel: "openai/openai/gpt-9" });
    expect(resolution.kind === "denied" && resolution.error.code).toBe("model_not_found");
  });

  describe("aliases", () => {
    const fast = route({
      alias: "fast",
      strategy: "weighted",
      targets: [
        { model: "openai/openai/gpt-4o-mini", weight: 3 },
        { model: "missing/openai/gpt-4o", weight: 1 },
        { model: "anthropic/anthropic/claude-haiku-4", weight: 1 },
      ],
    });

    it("resolves an alias to its available targets in order, with weights and route positions", () => {
      const resolution = resolveModel({ index: indexWith({ routes: [fast] }), ...caller, requestedModel: "fast", providerHeader: "anthropic" });
      expect(resolution.kind).toBe("route");
      if (resolution.kind !== "route") return;
      expect(resolution.route).toBe(fast);
      expect(resolution.targets.map((target) => [target.qualifiedModel, target.upstreamModel, target.weight, target.index])).toEqual([
        ["openai/openai/gpt-4o-mini", "gpt-4o-mini", 3, 0],
        ["anthropic/anthropic/claude-haiku-4", "claude-haiku-4", 1, 2],
      ]);
      expect(resolution.skippedTargets).toEqual([{ model: "missing/openai/gpt-4o", reason: "unavailable" }]);
    });

    it("denies an alias that policy denies, before looking at targets", () => {
      const deny = policy({ scope: "key", deny: ["fast"] });
      const resolution = resolveModel({ index: indexWith({ routes: [fast], policies: [deny] }), ...caller, requestedModel: "fast" });
      expect(resolution.kind === "denied" && resolution.error.details).toMatchObject({ model: "fast", rule: { policyId: deny.id } });
    });

    it("skips targets denied by policy and keeps the rest", () => {
      const deny = policy({ scope: "project", deny: ["openai/**"] });
      const resolution = resolveModel({ index: indexWith({ routes: [fast], policies: [deny] }), ...caller, requestedModel: "fast" });
      expect(resolution.kind).toBe("route");
      if (resolution.kind !== "route") return;
      expect(resolution.targets.map((target) => target.qualifiedModel)).toEqual(["anthropic/anthropic/claude-haiku-4"]);
      expect(resolution.skippedTargets).toContainEqual({
        model: "openai/openai/gpt-4o-mini",
        reason: "denied",
        rule: expect.objectContaining({ policyId: deny.id }),
      });
    });

    it("is 403 when every available target is denied, 404 when none is available", () => {
      const allowAliasOnly = policy({ scope: "organization", allow: ["fast"] });
      const denied = resolveModel({ index: indexWith({ routes: [fast], policies: [allowAliasOnly] }), ...caller, requestedModel: "fast" });
      expect(denied.kind === "denied" && denied.error.code).toBe("model_not_allowed");
      expect(denied.kind === "denied" && (denied.error.details?.deniedTargets as unknown[]).length).toBe(2);

      const broken = route({ alias: "broken", targets: [{ model: "missing/openai/gpt-4o", weight: 1 }, { model: "noslash", weight: 1 }] });
      const missing = resolveModel({ index: indexWith({ routes: [broken] }), ...caller, requestedModel: "broken" });
      expect(missing.kind === "denied" && missing.error.code).toBe("model_not_found");
    });
  });

  it("returns the same resolution object for repeated calls on one index (no per-call allocation)", () => {
    const index = indexWith({});
    const first = resolveModel({ index, ...caller, requestedModel: "openai/openai/gpt-4o" });
    expect(resolveModel({ index, ...caller, requestedModel: "openai/openai/gpt-4o" })).toBe(first);
  });

  it("compiles an index once per snapshot object and anew for a new snapshot version", () => {
    const data = snapshot({ connections: standardConnections() });
    expect(compileAccessIndex(data)).toBe(compileAccessIndex(data));
    const next = snapshot({ connections: [], version: "v2" });
    expect(resolveModel({ index: compileAccessIndex(next), ...caller, requestedModel: "openai/openai/gpt-4o" }).kind).toBe("denied");
  });
});
