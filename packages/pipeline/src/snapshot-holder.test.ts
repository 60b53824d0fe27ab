import { describe, expect, it, vi } from "vitest";
import type { ControlPlaneSnapshot } from "./control-plane-snapshot.js";
import type { ControlPlaneSource } from "./control-plane-source.js";
import { createTestSnapshot } from "./__fixtures__/create-test-snapshot.js";
import { createSnapshotHolder } from "./snapshot-holder.js";

/** A source whose stored snapshot the test changes, as another process would change the database. */
function createChangingSource(initial: ControlPlaneSnapshot) {
  let stored = initial;
  const calls = { load: 0, readVersion: 0 };
  let notify: (() => void) | undefined;
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
    push() {
      notify?.();
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
