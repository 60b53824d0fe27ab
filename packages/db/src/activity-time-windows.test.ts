import { describe, expect, it } from "vitest";
import { newestFirstWindows } from "./activity-time-windows.js";

const at = (iso: string) => new Date(iso);

describe("newestFirstWindows", () => {
  it("walks the day below now, the week before it, then everything older when the range is open", () => {
    expect(newestFirstWindows({}, undefined, at("2026-03-10T12:00:00Z"))).toEqual([
      { from: at("2026-03-09T12:00:00Z") },
      { from: at("2026-03-02T12:00:00Z"), to: at("2026-03-09T12:00:00Z") },
      { to: at("2026-03-02T12:00:00Z") },
    ]);
  });

  it("starts below the cursor's call or the end of the range, whichever is earlier, and keeps the range's own end on the first window", () => {
    const windows = newestFirstWindows({ to: at("2026-03-08T00:00:00Z") }, at("2026-03-05T00:00:00Z"), at("2026-03-10T00:00:00Z"));
    expect(windows).toEqual([
      { from: at("2026-03-04T00:00:00Z"), to: at("2026-03-08T00:00:00Z") },
      { from: at("2026-02-25T00:00:00Z"), to: at("2026-03-04T00:00:00Z") },
      { to: at("2026-02-25T00:00:00Z") },
    ]);
  });

  it("stops at the start of the range: one window when the range is shorter than a day", () => {
    expect(newestFirstWindows({ from: at("2026-03-09T20:00:00Z"), to: at("2026-03-10T00:00:00Z") }, undefined, at("2026-03-11T00:00:00Z"))).toEqual([
      { from: at("2026-03-09T20:00:00Z"), to: at("2026-03-10T00:00:00Z") },
    ]);
    expect(newestFirstWindows({ from: at("2026-03-05T00:00:00Z") }, undefined, at("2026-03-10T00:00:00Z"))).toEqual([
      { from: at("2026-03-09T00:00:00Z") },
      { from: at("2026-03-05T00:00:00Z"), to: at("2026-03-09T00:00:00Z") },
    ]);
  });
});
