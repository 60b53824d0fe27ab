import { GatewayError } from "@gateway/errors";
import { createMemoryAffinityStore } from "@gateway/policy-engine";
import type { ProviderTarget } from "@gateway/provider-adapters";
import { describe, expect, it } from "vitest";
import { callProvider } from "../src/stages/call-provider.js";
import type { RoutePlan } from "../src/stages/resolve-route.js";

const target = (name: string) => ({ connection: { id: name, name }, upstreamModel: "v/m", qualifiedModel: `${name}/v/m` }) as unknown as ProviderTarget;
const scope = () => ({ abort: new AbortController().signal, deadline: Date.now() + 30_000 });

function plan(targets: ProviderTarget[]): RoutePlan {
  return {
    requestedModel: "fast",
    route: { id: "route_1", organizationId: "org_1", alias: "fast", strategy: "priority", targets: [], affinity: { enabled: true, ttlSeconds: 60 }, retry: { maxAttempts: 1 } },
    targets,
    maxAttemptsPerTarget: 1,
    affinityKey: "affinity:org_1:key_1:fast:s-1",
  };
}

describe("session affinity across retries and fallbacks", () => {
  it("a session stuck to a failing target fails over to the next and then sticks there", async () => {
    const affinityStore = createMemoryAffinityStore();
    await affinityStore.set("affinity:org_1:key_1:fast:s-1", "a/v/m", 60);
    const tried: string[] = [];
    const outcome = await callProvider({
      plan: plan([target("a"), target("b")]),
      scope: scope(),
      affinityStore,
      call: async (candidate) => {
        tried.push(candidate.connection.name);
        if (candidate.connection.name === "a") throw new GatewayError("upstream_error", { retryable: true });
        return "answer";
      },
    });
    expect(tried).toEqual(["a", "b"]);
    expect(outcome.target.qualifiedModel).toBe("b/v/m");
    await expect.poll(() => affinityStore.get("affinity:org_1:key_1:fast:s-1")).toBe("b/v/m");
  });

  it("a non-retryable error ends the call on the first target without falling back", async () => {
    const affinityStore = createMemoryAffinityStore();
    await affinityStore.set("affinity:org_1:key_1:fast:s-1", "a/v/m", 60);
    const tried: string[] = [];
    await expect(
      callProvider({
        plan: plan([target("a"), target("b")]),
        scope: scope(),
        affinityStore,
        call: async (candidate) => {
          tried.push(candidate.connection.name);
          throw new GatewayError("invalid_request", { retryable: false });
        },
      }),
    ).rejects.toMatchObject({ code: "invalid_request" });
    expect(tried).toEqual(["a"]);
  });
});
