import { describe, expect, it } from "vitest";
import { caller, route, snapshot, standardConnections } from "./__fixtures__/snapshot.js";
import { compileAccessIndex } from "./access-index.js";
import type { AccessRoute } from "./access-snapshot.js";
import { createAffinityKey, type AffinityStore } from "./affinity-store.js";
import { createLatencyTracker } from "./create-latency-tracker.js";
import { createMemoryAffinityStore } from "./create-memory-affinity-store.js";
import { resolveModel } from "./resolve-model.js";
import { reportTargetFailure, reportTargetSuccess, selectTargets } from "./select-targets.js";

const targets = [
  { model: "openai/openai/gpt-4o", weight: 6 },
  { model: "openai/openai/gpt-4o-mini", weight: 3 },
  { model: "anthropic/anthropic/claude-haiku-4", weight: 1 },
];

function resolvedRoute(overrides: Partial<AccessRoute> = {}) {
  const index = compileAccessIndex(snapshot({ connections: standardConnections(), routes: [route({ alias: "pool", targets, ...overrides })] }));
  const resolution = resolveModel({ index, ...caller, requestedModel: "pool" });
  if (resolution.kind !== "route") throw new Error("expected a route");
  return resolution;
}

/** A deterministic uniform generator (mulberry32). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const names = (selection: { targets: { qualifiedModel: string }[] }) => selection.targets.map((target) => target.qualifiedModel);

describe("selectTargets", () => {
  it("priority: route order, all targets as fallbacks", async () => {
    expect(names(await selectTargets({ route: resolvedRoute() }))).toEqual(targets.map((target) => target.model));
  });

  it("weighted: first pick follows the weights; the rest follow in route order", async () => {
    const resolved = resolvedRoute({ strategy: "weighted" });
    const random = seededRandom(42);
    const counts = new Map<string, number>();
    const runs = 20_000;
    for (let run = 0; run < runs; run += 1) {
      const order = names(await selectTargets({ route: resolved, random }));
      const first = order[0] as string;
      counts.set(first, (counts.get(first) ?? 0) + 1);
      expect(order.slice(1)).toEqual(targets.map((target) => target.model).filter((model) => model !== first));
    }
    expect((counts.get("openai/openai/gpt-4o") ?? 0) / runs).toBeCloseTo(0.6, 1);
    expect((counts.get("openai/openai/gpt-4o-mini") ?? 0) / runs).toBeCloseTo(0.3, 1);
    expect((counts.get("anthropic/anthropic/claude-haiku-4") ?? 0) / runs).toBeCloseTo(0.1, 1);
  });

  it("weighted: a zero-weight target is never first, and maps random edges correctly", async () => {
    const resolved = resolvedRoute({ strategy: "weighted", targets: [{ model: targets[0]!.model, weight: 0 }, { model: targets[1]!.model, weight: 1 }] });
    expect(names(await selectTargets({ route: resolved, random: () => 0 }))).toEqual([targets[1]!.model, targets[0]!.model]);
    expect(names(await selectTargets({ route: resolved, random: () => 0.999999 }))[0]).toBe(targets[1]!.model);
  });

  it("least-latency: untried targets first, then the lowest moving average", async () => {
    const resolved = resolvedRoute({ strategy: "least-latency" });
    const tracker = createLatencyTracker({ alpha: 0.5 });
    tracker.record("openai/openai/gpt-4o", 900);
    tracker.record("anthropic/anthropic/claude-haiku-4", 100);
    expect(names(await selectTargets({ route: resolved, latencyTracker: tracker }))).toEqual([
      "openai/openai/gpt-4o-mini",
      "anthropic/anthropic/claude-haiku-4",
      "openai/openai/gpt-4o",
    ]);
    tracker.record("openai/openai/gpt-4o-mini", 500);
    tracker.record("anthropic/anthropic/claude-haiku-4", 1500); // average 800
    expect(names(await selectTargets({ route: resolved, latencyTracker: tracker }))).toEqual([
      "openai/openai/gpt-4o-mini",
      "anthropic/anthropic/claude-haiku-4",
      "openai/openai/gpt-4o",
    ]);
    tracker.record("openai/openai/gpt-4o", 100); // average 500, ties with mini: route order decides
    expect(names(await selectTargets({ route: resolved, latencyTracker: tracker }))[0]).toBe("openai/openai/gpt-4o");
  });

  describe("session affinity", () => {
    const sessionKey = createAffinityKey({ organizationId: "org_1", apiKeyId: "key_1", alias: "pool", session: "chat:42" });

    it("sticks a session to its first pick until the TTL ends", async () => {
      let now = 1_000_000;
      const affinityStore = createMemoryAffinityStore({ now: () => now });
      const resolved = resolvedRoute({ strategy: "weighted", affinity: { enabled: true, ttlSeconds: 30 } });
      const random = seededRandom(3);
      const first = await selectTargets({ route: resolved, sessionKey, affinityStore, random });
      expect(first.sticky).toBe(false);
      expect(first.affinityKey).toBe(sessionKey);
      for (let run = 0; run < 50; run += 1) {
        const again = await selectTargets({ route: resolved, sessionKey, affinityStore, random });
        expect(again.sticky).toBe(true);
        expect(again.targets[0]).toEqual(first.targets[0]);
      }
      now += 30_000;
      expect(await affinityStore.get(sessionKey)).toBeNull();
      expect((await selectTargets({ route: resolved, sessionKey, affinityStore, random })).sticky).toBe(false);
    });

    it("moves a session to the fallback that answered after its target failed", async () => {
      const affinityStore = createMemoryAffinityStore();
      const resolved = resolvedRoute({ affinity: { enabled: true, ttlSeconds: 60 } });
      const selection = await selectTargets({ route: resolved, sessionKey, affinityStore });
      const [failed, fallback] = selection.targets;
      await reportTargetFailure({ affinityStore, affinityKey: selection.affinityKey, target: failed! });
      expect(await affinityStore.get(sessionKey)).toBeNull();
      await reportTargetSuccess({ affinityStore, affinityKey: selection.affinityKey, target: fallback!, ttlSeconds: 60 });
      const next = await selectTargets({ route: resolved, sessionKey, affinityStore });
      expect(next.sticky).toBe(true);
      expect(next.targets[0]?.qualifiedModel).toBe(fallback!.qualifiedModel);
      // The failed target is still a fallback, in route order.
      expect(names(next)).toEqual([fallback!.qualifiedModel, failed!.qualifiedModel, targets[2]!.model]);
    });

    it("ignores the session when affinity is off, and a remembered target no longer in the route", async () => {
      const affinityStore = createMemoryAffinityStore();
      await affinityStore.set(sessionKey, "anthropic/anthropic/claude-haiku-4", 60);
      const off = await selectTargets({ route: resolvedRoute(), sessionKey, affinityStore });
      expect(off).toMatchObject({ affinityKey: null, sticky: false });
      expect(names(off)[0]).toBe("openai/openai/gpt-4o");
      await affinityStore.set(sessionKey, "gone/x/y", 60);
      const stale = await selectTargets({ route: resolvedRoute({ affinity: { enabled: true, ttlSeconds: 60 } }), sessionKey, affinityStore });
      expect(stale.sticky).toBe(false);
      expect(await affinityStore.get(sessionKey)).toBe("openai/openai/gpt-4o");
    });

    it("works with an asynchronous store", async () => {
      const entries = new Map<string, string>();
      const asyncStore: AffinityStore = {
        get: async (key) => entries.get(key) ?? null,
        set: async (key, target) => {
          entries.set(key, target);
        },
        delete: async (key) => {
          entries.delete(key);
        },
      };
      const resolved = resolvedRoute({ strategy: "weighted", affinity: { enabled: true, ttlSeconds: 60 } });
      const first = await selectTargets({ route: resolved, sessionKey, affinityStore: asyncStore, random: () => 0.95 });
      const second = await selectTargets({ route: resolved, sessionKey, affinityStore: asyncStore, random: () => 0 });
      expect(second.targets[0]?.qualifiedModel).toBe(first.targets[0]?.qualifiedModel);
      expect(second.sticky).toBe(true);
    });

    it("scopes keys to organization, API key, alias and session", () => {
      const base = { organizationId: "o", apiKeyId: "k", alias: "a", session: "s" };
      const keys = new Set([
        createAffinityKey(base),
        createAffinityKey({ ...base, organizationId: "o2" }),
        createAffinityKey({ ...base, apiKeyId: "k2" }),
        createAffinityKey({ ...base, alias: "b" }),
        createAffinityKey({ ...base, session: "s2" }),
        createAffinityKey({ ...base, alias: "a:s", session: "x" }),
        createAffinityKey({ ...base, alias: "a", session: "s:x" }),
      ]);
      expect(keys.size).toBe(7);
    });
  });
});
