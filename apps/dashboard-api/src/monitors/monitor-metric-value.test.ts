import { monitorRollupColumnIndex, monitorRollupHistogramOffset, monitorRollupSummedColumns } from "@gateway/db";
import { describe, expect, it } from "vitest";
import { breaches, monitorMetricValue } from "./monitor-metric-value.js";

function sums(figures: Partial<Record<keyof typeof monitorRollupColumnIndex, number>>, histogram: Record<number, number> = {}): number[] {
  const values = new Array<number>(monitorRollupSummedColumns.length).fill(0);
  for (const [column, value] of Object.entries(figures)) values[monitorRollupColumnIndex[column as keyof typeof monitorRollupColumnIndex]] = value;
  for (const [bucket, count] of Object.entries(histogram)) values[monitorRollupHistogramOffset + Number(bucket)] = count;
  return values;
}

describe("monitorMetricValue", () => {
  it("measures counts as 0 and rates and latencies as nothing without calls", () => {
    expect(monitorMetricValue("requests", null)).toEqual({ value: 0, calls: 0 });
    expect(monitorMetricValue("spend_micros", null)).toEqual({ value: 0, calls: 0 });
    expect(monitorMetricValue("error_rate", null)).toEqual({ value: null, calls: 0 });
    expect(monitorMetricValue("latency_p95_ms", null)).toEqual({ value: null, calls: 0 });
    expect(monitorMetricValue("time_to_first_byte_ms", sums({ request_count: 3 }))).toEqual({ value: null, calls: 3 });
  });

  it("computes the error rate, the mean time to first byte and the latency percentiles from the histogram", () => {
    expect(monitorMetricValue("error_rate", sums({ request_count: 8, error_count: 2 })).value).toBe(0.25);
    expect(monitorMetricValue("time_to_first_byte_ms", sums({ request_count: 4, time_to_first_byte_ms_sum: 300, time_to_first_byte_count: 2 })).value).toBe(150);
    // 95 calls at <= 50 ms, 5 at <= 1000 ms: p95 is in the first bucket, p99 in the 1000 ms one.
    const latencies = sums({ request_count: 100 }, { 0: 95, 6: 5 });
    expect(monitorMetricValue("latency_p95_ms", latencies).value).toBe(50);
    expect(monitorMetricValue("latency_p99_ms", latencies).value).toBe(1000);
    // Slower than the last bound: reported as 60 s.
    expect(monitorMetricValue("latency_p99_ms", sums({ request_count: 1 }, { 16: 1 })).value).toBe(60_000);
  });
});

describe("breaches", () => {
  it("compares with the threshold and never breaches without a value", () => {
    expect([breaches(2, "gt", 1), breaches(1, "gt", 1), breaches(1, "gte", 1), breaches(0, "lt", 1), breaches(1, "lte", 1)]).toEqual([true, false, true, true, true]);
    expect(breaches(null, "lt", 1)).toBe(false);
  });
});
