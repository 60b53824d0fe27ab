import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRubricKey } from "./parse-rubric-key.js";

describe("parseRubricKey", () => {
  it.each([
    ["1", 1],
    ["1.0", 1],
    ["-2", -2],
    ["+3", 3],
    [".5", 0.5],
    ["5.", 5],
    ["1e2", 100],
    ["2.5E-1", 0.25],
    ["-0", 0],
  ])("parses %j as %d", (key, expected) => {
    expect(Object.is(parseRubricKey(key), expected)).toBe(true);
  });

  it.each(["", " ", " 1", "1 ", "NaN", "Infinity", "-Infinity", "abc", "0x10", "0b1", "1e400", "1_000", "1,5", ".", "e5", "--1"])(
    "rejects %j",
    (key) => {
      expect(parseRubricKey(key)).toBeUndefined();
    },
  );
});

describe("parseRubricKey against its reference definition", () => {
  const reference = (key: string): number | undefined => {
    if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(key)) return undefined;
    const value = Number(key);
    return Number.isFinite(value) ? (value === 0 ? 0 : value) : undefined;
  };

  it("agrees with the regular-expression definition on number-like strings", () => {
    const piece = fc.constantFrom("0", "1", "9", "7", ".", "e", "E", "+", "-", "x", "b", "o", "X", " ", "\n", "_", "I", "n", "f", "a", "\u00a0", "400");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join("")), (key) => {
        expect(parseRubricKey(key)).toBe(reference(key));
      }),
      { numRuns: 5000 },
    );
  });

  it("agrees on arbitrary strings and on printed numbers", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (key) => {
        expect(parseRubricKey(key)).toBe(reference(key));
      }),
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (value) => {
        expect(parseRubricKey(String(value))).toBe(reference(String(value)));
      }),
    );
  });
});
