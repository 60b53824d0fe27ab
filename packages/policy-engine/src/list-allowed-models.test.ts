import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { caller, connection, policy, route, snapshot, standardConnections } from "./__fixtures__/snapshot.js";
import { compileAccessIndex } from "./access-index.js";
import type { AccessPolicy } from "./access-snapshot.js";
import { listAllowedModels, listModelsWithoutPolicies } from "./list-allowed-models.js";
import { resolveModel } from "./resolve-model.js";

describe("listAllowedModels", () => {
  it("lists enabled connections' qualified models, then allowed aliases", () => {
    const index = compileAccessIndex(
      snapshot({
        connections: [...standardConnections(), connection({ name: "off", enabled: false, models: ["openai/gpt-4o"] })],
        routes: [route({ alias: "fast", targets: [{ model: "openai/openai/gpt-4o-mini", weight: 1 }] }), route({ alias: "gone", targets: [] })],
        policies: [policy({ scope: "project", deny: ["anthropic/anthropic/claude-haiku-4"] })],
      }),
    );
    expect(listAllowedModels({ index, ...caller }).map((model) => [model.id, model.kind])).toEqual([
      ["openai/openai/gpt-4o", "model"],
      ["openai/openai/gpt-4o-mini", "model"],
      ["anthropic/anthropic/claude-sonnet-4", "model"],
      ["fast", "alias"],
    ]);
  });

  it("gives chains whose policies change nothing the organization's list, and the others their own", () => {
    const routes = [route({ alias: "fast", targets: [{ model: "openai/openai/gpt-4o-mini", weight: 1 }] }), route({ alias: "smart", targets: [{ model: "anthropic/anthropic/claude-sonnet-4", weight: 1 }] })];
    const policies = [
      policy({ scope: "organization", deny: ["never/never/*"] }),
      policy({ scope: "project", scopeId: "project_quiet", deny: ["never/model"] }),
      policy({ scope: "project", scopeId: "project_denies", deny: ["anthropic/**"] }),
      policy({ scope: "project", scopeId: "project_allows", allow: ["fast", "openai/**"] }),
    ];
    const parts = { connections: standardConnections(), routes, policies };
    const index = compileAccessIndex(snapshot(parts));
    const ids = (projectId: string) => listAllowedModels({ index, ...caller, projectId }).map((model) => model.id);
    const whole = listModelsWithoutPolicies(index, caller.organizationId);
    expect(listAllowedModels({ index, ...caller, projectId: "project_quiet" })).toBe(whole);
    expect(listAllowedModels({ index, ...caller, projectId: "project_none" })).toBe(whole);
    expect(ids("project_quiet")).toEqual([
      "openai/openai/gpt-4o",
      "openai/openai/gpt-4o-mini",
      "anthropic/anthropic/claude-sonnet-4",
      "anthropic/anthropic/claude-haiku-4",
      "fast",
      "smart",
    ]);
    expect(ids("project_denies")).toEqual(["openai/openai/gpt-4o", "openai/openai/gpt-4o-mini", "fast"]);
    expect(ids("project_allows")).toEqual(["openai/openai/gpt-4o", "openai/openai/gpt-4o-mini", "fast"]);

    // A new index of the same rows (a change elsewhere) keeps the organization's list; a route change makes a new one.
    const next = compileAccessIndex(snapshot(parts), { previous: index });
    expect(listModelsWithoutPolicies(next, caller.organizationId)).toBe(whole);
    const changed = compileAccessIndex(snapshot({ ...parts, routes: routes.slice(0, 1) }), { previous: next });
    expect(listAllowedModels({ index: changed, ...caller, projectId: "project_quiet" }).map((model) => model.id)).toEqual([
      "openai/openai/gpt-4o",
      "openai/openai/gpt-4o-mini",
      "anthropic/anthropic/claude-sonnet-4",
      "anthropic/anthropic/claude-haiku-4",
      "fast",
    ]);
  });

  it("lists exactly what resolveModel accepts (property over random configurations)", () => {
    const providerNames = ["p1", "p2", "p3"];
    const servedIds = ["v1/a", "v1/b", "v2/a", "v2/c-mini"];
    const aliases = ["fast", "smart", "cheap"];
    const qualifiedIds = providerNames.flatMap((provider) => servedIds.map((served) => `${provider}/${served}`));
    const patternPool = [
      "**",
      "*",
      "p1/**",
      "p2/v1/*",
      "**/a",
      "*/v2/**",
      "fast",
      "s*",
      "p3/v2/c-mini",
      "**mini",
      "cheap",
      "p1/v1/a",
    ];
    const connectionArbitrary = fc.record({
      name: fc.constantFrom(...providerNames),
      models: fc.subarray(servedIds),
      enabled: fc.boolean(),
    });
    const policyArbitrary = fc.record({
      scope: fc.constantFrom("organization" as const, "project" as const, "key" as const),
      foreign: fc.boolean(),
      allow: fc.subarray(patternPool, { maxLength: 3 }),
      deny: fc.subarray(patternPool, { maxLength: 3 }),
    });
    const routeArbitrary = fc.record({
      alias: fc.constantFrom(...aliases),
      targets: fc.array(fc.constantFrom(...qualifiedIds, "p9/v1/a"), { maxLength: 3 }),
    });

    fc.assert(
      fc.property(
        fc.uniqueArray(connectionArbitrary, { selector: (item) => item.name, maxLength: 3 }),
        fc.uniqueArray(routeArbitrary, { selector: (item) => item.alias, maxLength: 3 }),
        fc.array(policyArbitrary, { maxLength: 5 }),
        (connections, routes, policies) => {
          const index = compileAccessIndex(
            snapshot({
              connections: connections.map((item) => connection(item)),
              routes: routes.map((item) => route({ alias: item.alias, targets: item.targets.map((model) => ({ model, weight: 1 })) })),
              policies: policies.map(
                (item): AccessPolicy =>
                  policy({
                    scope: item.scope,
                    allow: item.allow,
                    deny: item.deny,
                    ...(item.foreign ? { scopeId: `${item.scope}_other` } : {}),
                  }),
              ),
            }),
          );
          const listed = new Set(listAllowedModels({ index, ...caller }).map((model) => model.id));
          for (const candidate of [...qualifiedIds, ...aliases, "p9/v1/a", "v1/a", "unknown"]) {
            const resolution = resolveModel({ index, ...caller, requestedModel: candidate });
            expect(resolution.kind !== "denied", candidate).toBe(listed.has(candidate));
          }
        },
      ),
      { numRuns: 300, seed: 20240611 },
    );
  });
});
