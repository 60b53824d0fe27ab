import { describe, expect, it } from "vitest";
import { jsonSizeExceeds } from "./json-size-exceeds.js";

describe("jsonSizeExceeds", () => {
  it("matches the length of JSON.stringify for plain JSON data, at the boundary", () => {
    const values: unknown[] = [
      { content: [{ type: "text", text: "hello" }], isError: false, structuredContent: { n: -12.5, list: [1, null, true, "x"], empty: {}, none: [] } },
      "plain",
      [],
      12345,
      null,
    ];
    for (const value of values) {
      const length = JSON.stringify(value).length;
      expect(jsonSizeExceeds(value, length), JSON.stringify(value)).toBe(false);
      expect(jsonSizeExceeds(value, length - 1), JSON.stringify(value)).toBe(true);
    }
  });

  it("stops early on a huge value, and walks deep nesting without recursion", () => {
    const huge = { content: Array.from({ length: 10_000 }, () => ({ type: "text", text: "x".repeat(1000) })) };
    expect(jsonSizeExceeds(huge, 4 * 1024 * 1024)).toBe(true);
    let deep: unknown = "leaf";
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(jsonSizeExceeds(deep, 1_000_000)).toBe(false);
    expect(jsonSizeExceeds(deep, 1000)).toBe(true);
  });
});
