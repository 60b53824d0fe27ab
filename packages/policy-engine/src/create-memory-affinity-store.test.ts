import { describe, expect, it } from "vitest";
import { createMemoryAffinityStore } from "./create-memory-affinity-store.js";

describe("createMemoryAffinityStore", () => {
  it("expires entries after their TTL", () => {
    let now = 0;
    const store = createMemoryAffinityStore({ now: () => now });
    store.set("a", "t1", 10);
    now = 9_999;
    expect(store.get("a")).toBe("t1");
    now = 10_000;
    expect(store.get("a")).toBeNull();
  });

  it("keeps at most maxEntries, dropping the oldest first", () => {
    const store = createMemoryAffinityStore({ maxEntries: 2 });
    store.set("a", "1", 60);
    store.set("b", "2", 60);
    store.set("a", "1b", 60); // refreshed: now the newest
    store.set("c", "3", 60);
    expect(store.size).toBe(2);
    expect(store.get("b")).toBeNull();
    expect(store.get("a")).toBe("1b");
    expect(store.get("c")).toBe("3");
    store.delete("c");
    expect(store.get("c")).toBeNull();
  });
});
