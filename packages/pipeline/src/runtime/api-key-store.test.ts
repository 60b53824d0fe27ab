import type { SnapshotApiKey } from "@gateway/contracts";
import { describe, expect, it } from "vitest";
import { ApiKeyStore } from "./api-key-store.js";

function key(id: string, overrides: Partial<SnapshotApiKey> = {}): SnapshotApiKey {
  return { id, organizationId: "org_1", projectId: "prj_1", teamId: null, name: id, secretHash: `HASH_${id}`, expiresAt: null, createdByUserId: null, ...overrides };
}

const immediately = async () => undefined;

describe("ApiKeyStore", () => {
  it("finds keys by lower-case hash and id, and a changed hash replaces the old entry", () => {
    const store = ApiKeyStore.from([key("k1")]);
    expect(store.apiKeysByHash.get("hash_k1")?.id).toBe("k1");
    store.applyApiKeys(["k1"], [key("k1", { secretHash: "HASH_ROTATED" })]);
    expect(store.apiKeysByHash.has("hash_k1")).toBe(false);
    expect(store.apiKeysByHash.get("hash_rotated")?.id).toBe("k1");
    store.applyApiKeys(["k1", "unknown"], []);
    expect(store.apiKeysById.size).toBe(0);
    expect(store.apiKeysByHash.size).toBe(0);
  });

  it("a reload in place removes what no page named, and never brings back a key a delta revoked meanwhile", async () => {
    const store = ApiKeyStore.from([key("k1"), key("k2"), key("gone")]);
    const reload = store.beginReload();
    // While the pages are read, k1 is revoked and k9 created (deltas read newer rows than the pages).
    store.applyApiKeys(["k1"], []);
    store.applyApiKeys(["k9"], [key("k9")]);
    reload.putApiKeys([key("k1"), key("k2", { name: "renamed" })]);
    await reload.finish(immediately);
    expect([...store.apiKeysById.keys()].sort()).toEqual(["k2", "k9"]);
    expect(store.apiKeysById.get("k2")?.name).toBe("renamed");
    expect(store.apiKeysByHash.has("hash_k1")).toBe(false);
    expect(store.apiKeysByHash.has("hash_gone")).toBe(false);
  });

  it("keeps the record it holds when a reload reads the same row again", async () => {
    const store = ApiKeyStore.from([key("k1", { expiresAt: new Date(1_000) })]);
    const held = store.apiKeysById.get("k1");
    const reload = store.beginReload();
    reload.putApiKeys([key("k1", { expiresAt: new Date(1_000) })]);
    await reload.finish(immediately);
    expect(store.apiKeysById.get("k1")).toBe(held);
  });
});
