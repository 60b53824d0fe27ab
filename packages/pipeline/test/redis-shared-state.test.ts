import { createAffinityKey, selectTargets } from "@gateway/policy-engine";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createControlPlaneChangeChannel, announceControlPlaneChange } from "../src/runtime/control-plane-change-channel.js";
import { createNotificationGate } from "../src/runtime/notification-gate.js";
import { createRedisAffinityStore } from "../src/runtime/redis-affinity-store.js";
import { connectTestRedis, deleteKeys, randomKeyPrefix, testRedisUrl } from "./redis-test-environment.js";

describe.skipIf(!testRedisUrl)("state shared by gateway instances through Redis", () => {
  const keyPrefix = randomKeyPrefix();
  let clients: Redis[] = [];
  const connect = () => {
    const client = connectTestRedis();
    clients.push(client);
    return client;
  };
  beforeAll(() => {
    clients = [];
  });
  afterAll(async () => {
    await deleteKeys(clients[0]!, keyPrefix);
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  });

  it("session affinity set by one instance is seen by another, and expires with its TTL", async () => {
    const first = createRedisAffinityStore({ redis: connect(), keyPrefix });
    const second = createRedisAffinityStore({ redis: connect(), keyPrefix });
    const key = createAffinityKey({ organizationId: "org_1", apiKeyId: "key_1", alias: "fast", session: "s-1" });
    await first.set(key, "b/vendor/model", 60);
    expect(await second.get(key)).toBe("b/vendor/model");
    expect(await clients[0]!.ttl(`${keyPrefix}a:${key}`)).toBeGreaterThan(50);
    await second.delete(key);
    expect(await first.get(key)).toBeNull();
    await first.set(key, "b/vendor/model", 1);
    await vi.waitFor(async () => expect(await second.get(key)).toBeNull(), { timeout: 3000, interval: 100 });
  });

  it("routes a session to the same target on two instances (selectTargets over the Redis store)", async () => {
    const stores = [createRedisAffinityStore({ redis: connect(), keyPrefix }), createRedisAffinityStore({ redis: connect(), keyPrefix })];
    const route = {
      kind: "route" as const,
      route: { alias: "spread", strategy: "weighted" as const, affinity: { enabled: true, ttlSeconds: 60 } },
      targets: ["a", "b", "c"].map((name) => ({
        connection: { id: name, name, organizationId: "org_1", models: ["v/m"], enabled: true },
        upstreamModel: "v/m",
        qualifiedModel: `${name}/v/m`,
        weight: 1,
      })),
    };
    const sessionKey = createAffinityKey({ organizationId: "org_1", apiKeyId: "key_1", alias: "spread", session: "sticky" });
    const chosen = new Set<string>();
    for (let call = 0; call < 10; call += 1) {
      const selection = await selectTargets({ route: route as never, sessionKey, affinityStore: stores[call % 2]! });
      chosen.add(selection.targets[0]!.qualifiedModel);
    }
    expect(chosen.size).toBe(1);
  });

  it("a failing Redis never fails routing: lookups answer null", async () => {
    const broken = connectTestRedis();
    clients.push(broken);
    broken.disconnect();
    const errors: unknown[] = [];
    const store = createRedisAffinityStore({ redis: broken, keyPrefix, commandTimeoutMs: 100, onError: (error) => errors.push(error) });
    expect(await store.get("anything")).toBeNull();
    await store.set("anything", "x", 10);
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });

  it("announces control-plane changes to other instances with their version and changes, not to the announcer", async () => {
    const one = createControlPlaneChangeChannel({ redis: connect(), subscriber: connect(), keyPrefix });
    const two = createControlPlaneChangeChannel({ redis: connect(), subscriber: connect(), keyPrefix });
    const seenByOne: unknown[] = [];
    const seenByTwo: unknown[] = [];
    const stopOne = await one.subscribe((announcement) => seenByOne.push(announcement));
    const stopTwo = await two.subscribe((announcement) => seenByTwo.push(announcement));
    // SUBSCRIBE is not awaited by design; wait until both are registered.
    await vi.waitFor(async () => expect(Number((await clients[0]!.pubsub("NUMSUB", `${keyPrefix}control-plane`))[1])).toBe(2), {
      timeout: 3000,
      interval: 20,
    });
    one.announce("v42");
    await vi.waitFor(() => expect(seenByTwo).toEqual([{ version: "v42" }]), { timeout: 3000, interval: 10 });
    // The dashboard's call (no origin) reaches everybody, with the changes that led to its version.
    const revoked = { version: "43", table: "api_keys", ids: ["key_7"] };
    expect(await announceControlPlaneChange({ redis: clients[0]!, keyPrefix, version: "43", changes: [revoked] })).toBe(2);
    await vi.waitFor(() => expect(seenByOne).toEqual([{ version: "43", changes: [revoked] }]), { timeout: 3000, interval: 10 });
    await vi.waitFor(() => expect(seenByTwo).toEqual([{ version: "v42" }, { version: "43", changes: [revoked] }]), { timeout: 3000, interval: 10 });
    // Changes that do not end at the announced version are left out (receivers read the log).
    await announceControlPlaneChange({ redis: clients[0]!, keyPrefix, version: "45", changes: [revoked] });
    await vi.waitFor(() => expect(seenByOne.at(-1)).toEqual({ version: "45" }), { timeout: 3000, interval: 10 });
    await stopOne();
    await stopTwo();
  });

  it("lets one notification through per key and period across instances", async () => {
    const gates = [createNotificationGate({ redis: connect(), keyPrefix }), createNotificationGate({ redis: connect(), keyPrefix })];
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => gates[index % 2]!.firstTime("budget.exceeded:b1:2026-11", 60)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await gates[0]!.firstTime("budget.exceeded:b2:2026-11", 60)).toBe(true);
  });
});
