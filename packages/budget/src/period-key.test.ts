import { describe, expect, it } from "vitest";
import { createPeriodCache, periodKey, periodWindow } from "./period-key.js";

const at = (iso: string) => Date.parse(iso);

describe("periodKey", () => {
  it("formats day, ISO week, month and total keys in UTC", () => {
    const time = at("2026-11-22T12:00:00Z"); // a Sunday
    expect(periodKey("day", time)).toBe("2026-11-22");
    expect(periodKey("week", time)).toBe("2026-W47");
    expect(periodKey("month", time)).toBe("2026-11");
    expect(periodKey("total", time)).toBe("total");
  });

  it("switches day at UTC midnight, not local midnight", () => {
    expect(periodKey("day", at("2026-11-22T23:59:59.999Z"))).toBe("2026-11-22");
    expect(periodKey("day", at("2026-11-23T00:00:00.000Z"))).toBe("2026-11-23");
    expect(periodKey("day", at("2026-11-23T00:30:00+01:00"))).toBe("2026-11-22");
  });

  it("starts weeks on Monday", () => {
    expect(periodKey("week", at("2026-11-22T23:59:59.999Z"))).toBe("2026-W47"); // Sunday
    expect(periodKey("week", at("2026-11-23T00:00:00.000Z"))).toBe("2026-W48"); // Monday
    expect(periodKey("week", at("2026-11-16T00:00:00.000Z"))).toBe("2026-W47"); // Monday
  });

  it("uses the ISO week-numbering year around new year", () => {
    expect(periodKey("week", at("2027-01-01T00:00:00Z"))).toBe("2026-W53");
    expect(periodKey("week", at("2027-01-04T00:00:00Z"))).toBe("2027-W01");
    expect(periodKey("week", at("2024-12-30T00:00:00Z"))).toBe("2025-W01");
    expect(periodKey("week", at("2021-01-03T00:00:00Z"))).toBe("2020-W53");
  });

  it("switches month on the first at UTC midnight, including leap years and December", () => {
    expect(periodKey("month", at("2028-02-29T23:59:59.999Z"))).toBe("2028-02");
    expect(periodKey("month", at("2028-03-01T00:00:00Z"))).toBe("2028-03");
    expect(periodKey("month", at("2026-12-31T23:59:59.999Z"))).toBe("2026-12");
    expect(periodKey("month", at("2027-01-01T00:00:00Z"))).toBe("2027-01");
  });
});

describe("periodWindow", () => {
  it("gives the exclusive end of each period", () => {
    const time = at("2026-11-22T12:00:00Z");
    expect(periodWindow("day", time)).toEqual({ key: "2026-11-22", startsAt: at("2026-11-22T00:00:00Z"), endsAt: at("2026-11-23T00:00:00Z") });
    expect(periodWindow("week", time)).toEqual({ key: "2026-W47", startsAt: at("2026-11-16T00:00:00Z"), endsAt: at("2026-11-23T00:00:00Z") });
    expect(periodWindow("month", at("2026-12-05T00:00:00Z")).endsAt).toBe(at("2027-01-01T00:00:00Z"));
    expect(periodWindow("total", time).endsAt).toBeNull();
  });

  it("is reproduced by the cache across boundaries", () => {
    const cached = createPeriodCache();
    for (const iso of ["2026-11-22T23:59:59.999Z", "2026-11-23T00:00:00Z", "2026-11-22T10:00:00Z", "2026-12-01T00:00:00Z"]) {
      for (const period of ["day", "week", "month", "total"] as const) {
        expect(cached(period, at(iso))).toEqual(periodWindow(period, at(iso)));
      }
    }
  });
});
