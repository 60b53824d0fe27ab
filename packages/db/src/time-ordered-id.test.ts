import { describe, expect, it } from "vitest";
import { timeOrderedId } from "./time-ordered-id.js";

const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("timeOrderedId", () => {
  it("is a version 7 UUID carrying the millisecond it was made", () => {
    const at = Date.UTC(2026, 10, 22, 9, 0, 0, 123);
    const id = timeOrderedId(at);
    expect(id).toMatch(uuidV7);
    expect(Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16)).toBe(at);
  });

  it("sorts in creation order, also within one millisecond and when the clock steps back", () => {
    const base = Date.UTC(2030, 0, 1);
    const made = [
      ...Array.from({ length: 5000 }, () => timeOrderedId(base)), // more than the 12-bit sequence holds
      timeOrderedId(base - 10_000),
      timeOrderedId(base + 5),
    ];
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
    for (const id of made) expect(id).toMatch(uuidV7);
  });
});
