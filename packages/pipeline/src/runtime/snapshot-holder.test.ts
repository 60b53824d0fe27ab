import { describe, expect, it, vi } from "vitest";
import type { ControlPlaneSnapshot } from "@gateway/contracts";
import type { ControlPlaneSource } from "./control-plane-source.js";
import { createTestSnapshot } from "../__fixtures__/create-test-snapshot.js";
import { createSnapshotHolder } from "./snapshot-holder.js";

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
