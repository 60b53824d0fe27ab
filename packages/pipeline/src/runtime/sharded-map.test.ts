import { describe, expect, it } from "vitest";
import { ShardedMap } from "./sharded-map.js";

describe("ShardedMap", () => {
  it("behaves as a map of strings: set, replace, get, has, delete, size and iteration", () => {
    const map = new ShardedMap<number>();
    const keys = Array.from({ length: 1000 }, (_, index) => `key_${index}`);
    keys.forEach((key, index) => map.set(key, index));
    map.set("key_7", 70);
    map.set("", -1);
    expect(map.size).toBe(1001);
    expect(map.get("key_7")).toBe(70);
    expect(map.get("")).toBe(-1);
    expect(map.has("key_999")).toBe(true);
    expect(map.delete("key_999")).toBe(true);
    expect(map.delete("key_999")).toBe(false);
    expect(map.has("key_999")).toBe(false);
    expect(map.size).toBe(1000);
    expect([...map.keys()].sort()).toEqual(["", ...keys.slice(0, 999)].sort());
    expect(new Map(map).get("key_1")).toBe(1);
    let visited = 0;
    map.forEach(() => (visited += 1));
    expect(visited).toBe(1000);
  });
});
