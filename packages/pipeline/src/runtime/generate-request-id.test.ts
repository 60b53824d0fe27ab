import { describe, expect, it } from "vitest";
import { generateRequestId } from "./generate-request-id.js";

describe("generateRequestId", () => {
  it("is req_ + 9 base-36 time digits + 16 URL-safe characters, and differs every time", () => {
    const ids = Array.from({ length: 2000 }, () => generateRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{9}[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sorts by the millisecond it was made in", () => {
    const times = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2027, 5, 1), Date.UTC(2040, 0, 1)];
    const ids = times.map((time) => generateRequestId(time));
    expect([...ids].sort()).toEqual(ids);
    expect(Number.parseInt(ids[2]!.slice(4, 13), 36)).toBe(times[2]);
  });
});
