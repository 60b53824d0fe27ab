import { describe, expect, it } from "vitest";
import { holdsValues } from "./repository-support.js";

describe("holdsValues (an upsert that finds its row unchanged writes nothing)", () => {
  const row = {
    name: "monthly",
    amountMicros: 5_000_000n,
    thresholds: [0.5, 0.8],
    prices: { "openai/gpt-4o-mini": { output: 0.6, input: 0.15 } },
    expiresAt: new Date("2030-01-01T00:00:00.000Z"),
    teamId: null,
  };

  it("compares JSON by content (key order aside), BIGINT with numbers, dates by instant", () => {
    expect(
      holdsValues(row, {
        name: "monthly",
        amountMicros: 5_000_000,
        thresholds: [0.5, 0.8],
        prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } },
        expiresAt: new Date("2030-01-01T00:00:00Z"),
        teamId: null,
        ignored: undefined,
      }),
    ).toBe(true);
  });

  it.each([
    ["a changed number", { amountMicros: 5_000_001 }],
    ["a reordered array", { thresholds: [0.8, 0.5] }],
    ["a changed nested value", { prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.7 } } }],
    ["an added key", { prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.01 } } }],
    ["a set value where null is stored", { teamId: "team_1" }],
    ["a string where a number is stored", { amountMicros: "5000000" }],
  ])("sees %s", (_name, data) => {
    expect(holdsValues(row, data)).toBe(false);
  });
});
