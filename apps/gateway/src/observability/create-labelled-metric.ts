import type { Registry } from "prom-client";

/** One label set's counter: an addition on a plain number. */
export interface LabelledCounterChild {
  inc(amount?: number): void;
}

/** One label set's histogram: a bucket search and three additions. */
export interface LabelledHistogramChild {
  observe(value: number): void;
}

/** Options of {@link createLabelledCounter} and {@link createLabelledHistogram}. */
export interface LabelledMetricOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  /** The registry whose exposition renders the metric. */
  registry: Registry;
}

interface CounterState {
  labels: Record<string, string>;
  value: number;
  handle: LabelledCounterChild;
}

interface HistogramState {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative), one slot per bound. */
  counts: Float64Array;
  sum: number;
  count: number;
  handle: LabelledHistogramChild;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * A Prometheus counter for the request path: `of(...labelValues)` returns the label set's child
 * (kept, so later calls are a map lookup) whose `inc` adds to a plain number. prom-client's own
 * children validate and hash their labels on every call; these do that once per label set. The
 * registry renders it like a prom-client counter (same names, labels and text).
 */
export function createLabelledCounter(options: LabelledMetricOptions): (...labelValues: string[]) => LabelledCounterChild {
  const children = new Map<string, CounterState>();
  register(options.registry, options, "counter", children, () => [...children.values()].map(({ labels, value }) => ({ labels, value })));
  return (...labelValues) => {
    const key = labelValues.join("\u0000");
    let child = children.get(key);
    if (child === undefined) {
      const state = { labels: labelsOf(options.labelNames, labelValues), value: 0 } as CounterState;
      state.handle = {
        inc(amount = 1) {
          state.value += amount;
        },
      };
      child = state;
      children.set(key, child);
    }
    return child.handle;
  };
}

/**
 * A Prometheus histogram for the request path, as {@link createLabelledCounter}: `observe` finds
 * the value's bucket and adds to plain numbers; the registry renders the cumulative `_bucket`
 * lines (with `le`), `_sum` and `_count` like a prom-client histogram.
 */
export function createLabelledHistogram(options: LabelledMetricOptions & { buckets: readonly number[] }): (...labelValues: string[]) => LabelledHistogramChild {
  const bounds = [...options.buckets].sort((a, b) => a - b);
  const children = new Map<string, HistogramState>();
  register(options.registry, options, "histogram", children, () => {
    const values: MetricValue[] = [];
    const bucketName = `${options.name}_bucket`;
    for (const { labels, counts, sum, count } of children.values()) {
      let cumulative = 0;
      for (const [index, bound] of bounds.entries()) {
        cumulative += counts[index]!;
        values.push({ labels: { le: bound, ...labels }, value: cumulative, metricName: bucketName });
      }
      values.push({ labels: { le: "+Inf", ...labels }, value: count, metricName: bucketName });
      values.push({ labels, value: sum, metricName: `${options.name}_sum` });
      values.push({ labels, value: count, metricName: `${options.name}_count` });
    }
    return values;
  });
  return (...labelValues) => {
    const key = labelValues.join("\u0000");
    let child = children.get(key);
    if (child === undefined) {
      // One slot per bound; a value above the last one only counts in `+Inf` (the total count).
      const state = { labels: labelsOf(options.labelNames, labelValues), counts: new Float64Array(bounds.length), sum: 0, count: 0 } as HistogramState;
      state.handle = {
        observe(value) {
          if (!Number.isFinite(value)) return;
          state.sum += value;
          state.count += 1;
          for (let index = 0; index < bounds.length; index += 1) {
            if (value <= bounds[index]!) {
              state.counts[index]! += 1;
              break;
            }
          }
        },
      };
      child = state;
      children.set(key, child);
    }
    return child.handle;
  };
}

function labelsOf(labelNames: readonly string[], labelValues: readonly string[]): Record<string, string> {
  if (labelValues.length !== labelNames.length) throw new Error(`Expected ${labelNames.length} label values (${labelNames.join(", ")}), got ${labelValues.length}.`);
  const labels: Record<string, string> = {};
  for (const [index, name] of labelNames.entries()) labels[name] = labelValues[index]!;
  return labels;
}

/** Registers a metric object the registry renders (prom-client calls `get()` at scrape time, `reset()` on `resetMetrics`). */
function register(registry: Registry, options: LabelledMetricOptions, type: "counter" | "histogram", children: Map<string, unknown>, values: () => MetricValue[]): void {
  const metric = {
    name: options.name,
    help: options.help,
    type,
    aggregator: "sum",
    get: async () => ({ name: options.name, help: options.help, type, aggregator: "sum", values: values() }),
    reset: () => children.clear(),
  };
  registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
}
