import { describe, expect, it, vi } from "vitest";
import type { ControlPlaneChange, ControlPlaneConfiguration, ControlPlaneSnapshot, SnapshotApiKey, SnapshotPolicy } from "@gateway/contracts";
import type { ControlPlaneAnnouncement, ControlPlaneSource } from "./control-plane-source.js";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";
import { authenticateSecret, hashGatewayApiKey } from "../stages/authenticate.js";
import { type SnapshotReloadDetails, createSnapshotHolder } from "./snapshot-holder.js";

/** A source whose stored snapshot the test changes, as another process would change the database. */
function createChangingSource(initial: ControlPlaneSnapshot) {
  let stored = initial;
  const calls = { load: 0, readVersion: 0 };
  let notify: ((version?: string | null) => void) | undefined;
  const source: ControlPlaneSource = {
    async load() {
      calls.load += 1;
      return stored;
    },
    async readVersion() {
      calls.readVersion += 1;
      return stored.version;
    },
  };
  return {
    source,
    calls,
    change(next: ControlPlaneSnapshot) {
      stored = next;
    },
    withSubscribe(): ControlPlaneSource {
      return {
        ...source,
        subscribe(onChange) {
          notify = onChange;
          return () => {
            notify = undefined;
          };
        },
      };
    },
    push(version?: string) {
      notify?.(version);
    },
  };
}

describe("createSnapshotHolder", () => {
  it("serves the loaded snapshot and reloads only when the version changes", async () => {
    const store = createChangingSource(createTestSnapshot({ version: "v1" }));
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000 });
    await holder.start();
    expect(holder.current().apiKeysById.has("key_1")).toBe(true);
    expect(await holder.refresh()).toBe(false);
    expect(store.calls.load).toBe(1);

    store.change(createTestSnapshot({ version: "v2", apiKeys: [] }));
    expect(await holder.refresh()).toBe(true);
    expect(holder.current().version).toBe("v2");
    expect(holder.current().apiKeysById.has("key_1")).toBe(false);
    await holder.stop();
  });

  it("polls on its own so that a change made elsewhere is picked up", async () => {
    const store = createChangingSource(createTestSnapshot({ version: "v1" }));
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 20 });
    await holder.start();
    store.change(createTestSnapshot({ version: "v2", apiKeys: [] }));
    await vi.waitFor(() => expect(holder.current().version).toBe("v2"), { timeout: 2000, interval: 10 });
    await holder.stop();
  });

  it("reloads at once on a push notification", async () => {
    const store = createChangingSource(createTestSnapshot({ version: "v1" }));
    const holder = createSnapshotHolder({ source: store.withSubscribe(), pollIntervalMs: 60_000 });
    await holder.start();
    store.change(createTestSnapshot({ version: "v2" }));
    store.push();
    await vi.waitFor(() => expect(holder.current().version).toBe("v2"), { timeout: 2000, interval: 5 });
    await holder.stop();
  });

  it("skips an announced version already in service and tells onReload why it reloaded", async () => {
    const store = createChangingSource(createTestSnapshot({ version: "v1" }));
    const reasons: string[] = [];
    const holder = createSnapshotHolder({
      source: store.withSubscribe(),
      pollIntervalMs: 60_000,
      onReload: (_snapshot, reason) => reasons.push(reason),
    });
    await holder.start();
    store.push("v1");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.calls.load).toBe(1);
    store.change(createTestSnapshot({ version: "v2" }));
    store.push("v2");
    await vi.waitFor(() => expect(holder.current().version).toBe("v2"), { timeout: 2000, interval: 5 });
    store.change(createTestSnapshot({ version: "v3" }));
    expect(await holder.refresh()).toBe(true);
    expect(reasons).toEqual(["start", "push", "refresh"]);
    await holder.stop();
  });

  it("reports a change noticed by its own poll as `poll` (the reason to announce it)", async () => {
    const store = createChangingSource(createTestSnapshot({ version: "v1" }));
    const reasons: string[] = [];
    const changes: string[] = [];
    const holder = createSnapshotHolder({
      source: store.source,
      pollIntervalMs: 10,
      onReload: (_snapshot, reason) => reasons.push(reason),
      onVersionChange: (version) => changes.push(version),
    });
    await holder.start();
    store.change(createTestSnapshot({ version: "v2" }));
    await vi.waitFor(() => expect(reasons).toEqual(["start", "poll"]), { timeout: 2000, interval: 5 });
    expect(changes).toEqual(["v2"]);
    await holder.stop();
  });

  it("keeps serving the previous snapshot when a reload fails, and reports the error", async () => {
    const store = createChangingSource(createTestSnapshot({ version: "v1" }));
    const errors: unknown[] = [];
    const failing: ControlPlaneSource = {
      load: store.source.load,
      readVersion: async () => {
        throw new Error("database unreachable");
      },
    };
    const holder = createSnapshotHolder({ source: failing, pollIntervalMs: 10, onError: (error) => errors.push(error) });
    await holder.start();
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 2000, interval: 10 });
    expect(holder.current().version).toBe("v1");
    await holder.stop();
  });

  it("refuses to serve before the first load", () => {
    const store = createChangingSource(createTestSnapshot());
    expect(() => createSnapshotHolder({ source: store.source }).current()).toThrow(/not loaded/);
  });
});

/**
 * A source with a change log, as `@gateway/db` provides on SQLite and PostgreSQL: every write
 * bumps the integer version and logs (version, table, ids); the test counts every read.
 */
function createLoggedSource(keyCount = 1) {
  const initial = createTestSnapshot({ version: "1" });
  const { apiKeys: firstKeys, mcpTokens: _tokens, ...firstConfiguration } = initial;
  let configuration: ControlPlaneConfiguration = firstConfiguration;
  const keys = new Map<string, SnapshotApiKey>(firstKeys.map((key) => [key.id, key]));
  for (let index = 2; index <= keyCount; index += 1) keys.set(`key_${index}`, apiKey(`key_${index}`));
  let version = 1;
  let log: ControlPlaneChange[] = [];
  const calls = { readVersion: 0, readChanges: 0, loadConfiguration: 0, loadConfigurationParts: [] as string[][], keyPages: 0, keysById: [] as string[][] };
  let notify: ((announcement?: ControlPlaneAnnouncement) => void) | undefined;
  const write = (table: string, ids: string[] | null): ControlPlaneChange => {
    version += 1;
    const change = { version: String(version), table, ids };
    log.push(change);
    return change;
  };
  const source: ControlPlaneSource = {
    load: async () => {
      throw new Error("a source with deltas is never loaded whole");
    },
    async readVersion() {
      calls.readVersion += 1;
      return String(version);
    },
    deltas: {
      async readChanges(afterVersion, limit) {
        calls.readChanges += 1;
        return log.filter((change) => Number(change.version) > Number(afterVersion)).slice(0, limit);
      },
      async loadConfiguration() {
        calls.loadConfiguration += 1;
        return { ...configuration, version: String(version) };
      },
      async loadConfigurationParts(parts) {
        calls.loadConfigurationParts.push([...parts]);
        return Object.fromEntries(parts.map((part) => [part, configuration[part]]));
      },
      async loadApiKeys(selection) {
        if ("ids" in selection) {
          calls.keysById.push([...selection.ids]);
          return selection.ids.flatMap((id) => (keys.has(id) ? [keys.get(id)!] : []));
        }
        calls.keyPages += 1;
        const sorted = [...keys.values()].sort((left, right) => (left.id < right.id ? -1 : 1));
        return sorted.filter((key) => selection.afterId === null || key.id > selection.afterId).slice(0, selection.limit);
      },
      async loadMcpTokens() {
        return [];
      },
    },
    subscribe(onChange) {
      notify = onChange;
      return () => void (notify = undefined);
    },
  };
  return {
    source,
    calls,
    revoke: (id: string) => {
      keys.delete(id);
      return write("api_keys", [id]);
    },
    create: (key: SnapshotApiKey) => {
      keys.set(key.id, key);
      return write("api_keys", [key.id]);
    },
    setPolicies: (policies: SnapshotPolicy[]) => {
      configuration = { ...configuration, policies };
      return write("policies", policies.map((policy) => policy.id));
    },
    /** A bump that logs nothing (a hand-edited version, or a log pruned past the gateway). */
    bumpWithoutLog: () => {
      version += 1;
    },
    forgetLog: () => {
      log = [];
    },
    announce: (announcement: ControlPlaneAnnouncement) => notify?.(announcement),
  };
}

function apiKey(id: string, secret = `gak_${id}_0123456789`): SnapshotApiKey {
  return { id, organizationId: "org_1", projectId: "prj_1", teamId: null, name: id, secretHash: hashGatewayApiKey(secret), expiresAt: null, createdByUserId: null };
}

function recordReloads() {
  const reloads: { reason: string; details: SnapshotReloadDetails }[] = [];
  return { reloads, onReload: (_snapshot: unknown, reason: string, details: SnapshotReloadDetails) => void reloads.push({ reason, details }) };
}

describe("createSnapshotHolder with a change log (deltas)", () => {
  it("applies a revocation as one key read by id, without a full reload, and refuses the key", async () => {
    const store = createLoggedSource(3);
    const { reloads, onReload } = recordReloads();
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000, onReload });
    await holder.start();
    expect(authenticateSecret(testApiKey, holder.current()).apiKey.id).toBe("key_1");
    const keyMaps = holder.current().apiKeysById;

    const change = store.revoke("key_1");
    store.announce({ version: change.version, changes: [change] });
    await vi.waitFor(() => expect(holder.current().version).toBe(change.version), { timeout: 2000, interval: 5 });

    expect(() => authenticateSecret(testApiKey, holder.current())).toThrow(expect.objectContaining({ code: "invalid_gateway_api_key" }));
    expect(holder.current().apiKeysById).toBe(keyMaps);
    expect(holder.current().apiKeysById.size).toBe(2);
    expect(reloads.map((reload) => [reload.reason, reload.details.mode])).toEqual([
      ["start", "full"],
      ["push", "delta"],
    ]);
    // The announcement named the change: no version read, no log read, one read of the one key, nothing else.
    expect(store.calls).toMatchObject({ readVersion: 0, readChanges: 0, loadConfiguration: 1, loadConfigurationParts: [], keysById: [["key_1"]] });
    await holder.stop();
  });

  it("reads the log when an announcement carries a version only, and serves a created key", async () => {
    const store = createLoggedSource();
    const { reloads, onReload } = recordReloads();
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000, onReload });
    await holder.start();
    const created = store.create(apiKey("key_new", "gak_created_0123456789"));
    store.announce(created.version);
    await vi.waitFor(() => expect(holder.current().version).toBe(created.version), { timeout: 2000, interval: 5 });
    expect(authenticateSecret("gak_created_0123456789", holder.current()).apiKey.id).toBe("key_new");
    expect(store.calls.readChanges).toBe(1);
    expect(reloads.at(-1)?.details).toEqual({ mode: "delta", changes: [created] });
    await holder.stop();
  });

  it("applies a change announced by two paths once (the PostgreSQL notification and the dashboard's Redis message)", async () => {
    const store = createLoggedSource(2);
    const { reloads, onReload } = recordReloads();
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000, onReload });
    await holder.start();
    const change = store.revoke("key_2");
    store.announce({ version: change.version, changes: [change] });
    store.announce({ version: change.version });
    await vi.waitFor(() => expect(holder.current().version).toBe(change.version), { timeout: 2000, interval: 5 });
    store.announce({ version: change.version, changes: [change] });
    await holder.refresh();
    expect(reloads.filter((reload) => reload.reason !== "start")).toHaveLength(1);
    expect(store.calls.keysById).toEqual([["key_2"]]);
    await holder.stop();
  });

  it("reloads everything when the logged versions do not follow its own (a gap)", async () => {
    const store = createLoggedSource(5);
    const { reloads, onReload } = recordReloads();
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000, keyPageSize: 2, onReload });
    await holder.start();
    expect(store.calls.keyPages).toBe(3);
    store.revoke("key_3");
    store.forgetLog();
    store.bumpWithoutLog();
    expect(await holder.refresh()).toBe(true);
    expect(reloads.map((reload) => [reload.reason, reload.details.mode])).toEqual([
      ["start", "full"],
      ["refresh", "full"],
    ]);
    expect(store.calls.loadConfiguration).toBe(2);
    expect(holder.current().apiKeysById.has("key_3")).toBe(false);
    expect(holder.current().apiKeysById.size).toBe(4);
    await holder.stop();
  });

  it("takes a change of an unknown key in its stride", async () => {
    const store = createLoggedSource();
    const errors: unknown[] = [];
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000, onError: (error) => errors.push(error) });
    await holder.start();
    const change = store.revoke("key_never_seen");
    expect(await holder.refresh()).toBe(true);
    expect(holder.current().version).toBe(change.version);
    expect(authenticateSecret(testApiKey, holder.current()).apiKey.id).toBe("key_1");
    expect(errors).toEqual([]);
    await holder.stop();
  });

  it("rebuilds the configuration for a policy change without reading or rebuilding the keys", async () => {
    const store = createLoggedSource(3);
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000 });
    await holder.start();
    const before = holder.current();
    const change = store.setPolicies([{ id: "pol_1", organizationId: "org_1", scope: "organization", scopeId: "org_1", allow: [], deny: ["*"], guardrails: null }]);
    expect(await holder.refresh()).toBe(true);
    const after = holder.current();
    expect(after.version).toBe(change.version);
    expect(after.snapshot.policies.map((policy) => policy.id)).toEqual(["pol_1"]);
    expect(after.access).not.toBe(before.access);
    expect(after.apiKeysById).toBe(before.apiKeysById);
    expect(store.calls).toMatchObject({ loadConfiguration: 1, loadConfigurationParts: [["policies"]], keyPages: 1, keysById: [] });
    await holder.stop();
  });

  it("refuses a key revoked while a long full reload runs, before that reload ends", async () => {
    const store = createLoggedSource(4);
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 60_000, keyPageSize: 2 });
    await holder.start();
    // The next full reload stalls on its second page until the test lets it go.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const loadApiKeys = store.source.deltas!.loadApiKeys;
    let pages = 0;
    store.source.deltas!.loadApiKeys = async (selection) => {
      if (!("ids" in selection) && ++pages === 2) await gate;
      return loadApiKeys(selection);
    };
    const reloading = holder.reload();
    await vi.waitFor(() => expect(pages).toBe(2), { timeout: 2000, interval: 5 });
    const change = store.revoke("key_1");
    store.announce({ version: change.version, changes: [change] });
    await vi.waitFor(() => expect(() => authenticateSecret(testApiKey, holder.current())).toThrow(), { timeout: 2000, interval: 5 });
    release();
    await reloading;
    await holder.refresh();
    expect(holder.current().version).toBe(change.version);
    expect(holder.current().apiKeysById.has("key_1")).toBe(false);
    expect(holder.current().apiKeysById.size).toBe(3);
    await holder.stop();
  });

  it("catches up by polling when nobody announces, and tells onVersionChange the logged changes", async () => {
    const store = createLoggedSource(2);
    const announced: [string, readonly ControlPlaneChange[] | undefined][] = [];
    const holder = createSnapshotHolder({ source: store.source, pollIntervalMs: 10, onVersionChange: (version, changes) => announced.push([version, changes]) });
    await holder.start();
    const change = store.revoke("key_2");
    await vi.waitFor(() => expect(holder.current().version).toBe(change.version), { timeout: 2000, interval: 5 });
    expect(announced).toEqual([[change.version, [change]]]);
    await holder.stop();
  });
});
