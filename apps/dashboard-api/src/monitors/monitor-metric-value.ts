import type { MonitorComparator, MonitorMetric, MonitorScopeKind } from "@gateway/contracts";
import { monitorRollupColumnIndex as column, monitorRollupHistogramOffset, usageLatencyBucketBoundsMs, type MonitorRollupDimension } from "@gateway/db";
import { estimateLatencyPercentile } from "../usage/estimate-latency-percentile.js";

/** The rollup dimension a scope kind groups on. */
export const scopeDimension: Record<MonitorScopeKind, MonitorRollupDimension> = {
  organization: "organization_id",
  project: "project_id",
  team: "team_id",
  api_key: "api_key_id",
  model: "model",
  connection: "connection_id",
  client_label: "client_label",
};

/** A measured value: null when the metric has nothing to measure (a rate or latency without calls). */
export interface MeasuredValue {
  value: number | null;
  calls: number;
}

/**
 * The metric of summed rollup figures (see `monitorRollupSummedColumns` of `@gateway/db`).
 * Counts are 0 without calls; ratios and latencies are null. Latency percentiles are the upper
 * bound of the histogram bucket holding the rank (an upper estimate by at most one bucket),
 * and 60 s for anything in the last, open bucket.
 */
export function monitorMetricValue(metric: MonitorMetric, sums: readonly number[] | null): MeasuredValue {
  const at = (index: number) => (sums === null ? 0 : sums[index]!);
  const calls = at(column.request_count);
  switch (metric) {
    case "spend_micros":
      return { value: at(column.cost_micros), calls };
    case "requests":
      return { value: calls, calls };
    case "tokens":
      return { value: at(column.tokens), calls };
    case "error_rate":
      return { value: calls === 0 ? null : at(column.error_count) / calls, calls };
    case "latency_p95_ms":
    case "latency_p99_ms": {
      if (sums === null) return { value: null, calls };
      const counts = sums.slice(monitorRollupHistogramOffset);
      const maxMs = usageLatencyBucketBoundsMs[usageLatencyBucketBoundsMs.length - 1]!;
      return { value: estimateLatencyPercentile({ boundsMs: usageLatencyBucketBoundsMs, counts, maxMs }, metric === "latency_p95_ms" ? 0.95 : 0.99), calls };
    }
    case "time_to_first_byte_ms": {
      const count = at(column.time_to_first_byte_count);
      return { value: count === 0 ? null : at(column.time_to_first_byte_ms_sum) / count, calls };
    }
    case "guardrail_blocks":
      return { value: at(column.guardrail_blocks), calls };
    case "rate_limit_refusals":
      return { value: at(column.rate_limit_refusals), calls };
    case "budget_refusals":
      return { value: at(column.budget_refusals), calls };
    case "upstream_failures":
      return { value: at(column.upstream_failures), calls };
  }
}

/** Whether `value <comparator> threshold` holds (never for a null value). */
export function breaches(value: number | null, comparator: MonitorComparator, threshold: number): boolean {
  if (value === null) return false;
  switch (comparator) {
    case "gt":
      return value > threshold;
    case "gte":
      return value >= threshold;
    case "lt":
      return value < threshold;
    case "lte":
      return value <= threshold;
  }
}

/** Adds rollup sums into `target` (in place). */
export function addSums(target: number[], sums: readonly number[]): void {
  for (let index = 0; index < sums.length; index += 1) target[index] = (target[index] ?? 0) + sums[index]!;
}
