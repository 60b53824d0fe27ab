import { describe, expect, it } from "vitest";
import { formatMicros, parseDollarsToMicros } from "./format-micros.js";

describe("formatMicros", () => {
  it("renders dollars with enough digits for small amounts", () => {
    expect(formatMicros(0)).toBe("$0");
    expect(formatMicros(25_000_000)).toBe("$25.00");
    expect(formatMicros(1_234_567_890)).toBe("$1,234.57");
    expect(formatMicros(42_000)).toBe("$0.042");
    expect(formatMicros(4_200)).toBe("$0.0042");
    expect(formatMicros(11)).toBe("$0.000011");
    expect(formatMicros(-1_500_000)).toBe("-$1.50");
  });
});

describe("parseDollarsToMicros", () => {
  it("parses what people type, exactly", () => {
    expect(parseDollarsToMicros("25")).toBe(25_000_000);
    expect(parseDollarsToMicros(" $1,250.50 ")).toBe(1_250_500_000);
    expect(parseDollarsToMicros("0.000001")).toBe(1);
    expect(parseDollarsToMicros("0.1")).toBe(100_000);
  });

  it("refuses what is not an amount", () => {
    for (const text of ["", "abc", "-5", "1.0000001", "1e3", "$"]) expect(parseDollarsToMicros(text), text).toBeNull();
  });
});
