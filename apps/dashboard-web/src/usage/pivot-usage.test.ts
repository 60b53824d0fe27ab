import { describe, expect, it } from "vitest";
import { listBuckets, otherGroupKey, pivotUsage, type UsagePoint } from "./pivot-usage.js";

const point = (bucket: string, key: string, requests: number, costMicros = 0): UsagePoint => ({ bucket, key, requests, errors: 0, tokens: requests * 10, costMicros });

describe("listBuckets", () => {
  it("lists every hour or day of a range, aligned to UTC", () => {
    expect(listBuckets(new Date("2026-03-18T10:30:00Z"), new Date("2026-03-18T13:00:00Z"), "hour")).toEqual(["2026-03-18T10:00:00.000Z", "2026-03-18T11:00:00.000Z", "2026-03-18T12:00:00.000Z"]);
    expect(listBuckets(new Date("2026-03-01T00:00:00Z"), new Date("2026-03-03T00:00:00Z"), "day")).toHaveLength(2);
  });
});

describe("pivotUsage", () => {
  const buckets = ["2026-03-18T10:00:00.000Z", "2026-03-18T11:00:00.000Z", "2026-03-18T12:00:00.000Z"];

  it("puts each group in a column per bucket, zero where nothing happened, largest group first", () => {
    const pivoted = pivotUsage([point(buckets[0]!, "key-a", 2), point(buckets[2]!, "key-b", 5), point(buckets[2]!, "key-a", 1)], { metric: "requests", buckets });
    expect(pivoted.keys).toEqual(["key-b", "key-a"]);
    expect(pivoted.totals).toEqual({ "key-b": 5, "key-a": 3 });
    expect(pivoted.rows).toEqual([
      { bucket: buckets[0], "key-b": 0, "key-a": 2 },
      { bucket: buckets[1], "key-b": 0, "key-a": 0 },
      { bucket: buckets[2], "key-b": 5, "key-a": 1 },
    ]);
  });

  it("folds the smallest groups into “other” beyond the limit, keeping the sum", () => {
    const points = ["a", "b", "c", "d"].map((key, index) => point(buckets[0]!, key, 10 - index, (10 - index) * 1000));
    const pivoted = pivotUsage(points, { metric: "costMicros", buckets, limit: 3 });
    expect(pivoted.keys).toEqual(["a", "b", otherGroupKey]);
    expect(pivoted.rows[0]).toEqual({ bucket: buckets[0], a: 10_000, b: 9_000, [otherGroupKey]: 15_000 });
    expect(pivoted.totals[otherGroupKey]).toBe(15_000);
  });

  it("leaves out groups with nothing of the metric", () => {
    expect(pivotUsage([point(buckets[0]!, "free", 4, 0)], { metric: "costMicros", buckets }).keys).toEqual([]);
  });
});
