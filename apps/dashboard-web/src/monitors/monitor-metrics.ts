import type { MonitorRule } from "../api/api-types.js";
import { formatMicros, parseDollarsToMicros } from "../format/format-micros.js";
import { formatDuration, formatNumber, formatPercent } from "../format/format-number.js";

/** A metric a monitor measures. */
export type MonitorMetric = MonitorRule["metric"];
/** How a monitor compares its value with its threshold. */
export type MonitorComparator = MonitorRule["comparator"];
/** What a monitor looks at. */
export type MonitorScopeKind = MonitorRule["scope"]["kind"];
/** How loud a monitor is. */
export type MonitorSeverity = MonitorRule["severity"];
/** The state of a monitor for one scope value. */
export type MonitorStatus = MonitorRule["status"];

/** The unit a metric's threshold is typed in: dollars, a percentage, milliseconds or a count. */
type MetricUnit = "dollars" | "percent" | "milliseconds" | "count";

/** Each metric's name and the unit its threshold is typed in (keyed by the API's list: a metric it adds fails the build here). */
export const monitorMetricInfo: Record<MonitorMetric, { label: string; unit: MetricUnit }> = {
  spend_micros: { label: "Spend", unit: "dollars" },
  requests: { label: "Requests", unit: "count" },
  tokens: { label: "Tokens", unit: "count" },
  error_rate: { label: "Error rate", unit: "percent" },
  latency_p95_ms: { label: "Latency (95th percentile)", unit: "milliseconds" },
  latency_p99_ms: { label: "Latency (99th percentile)", unit: "milliseconds" },
  time_to_first_byte_ms: { label: "Time to first byte (mean)", unit: "milliseconds" },
  guardrail_blocks: { label: "Guardrail blocks", unit: "count" },
  rate_limit_refusals: { label: "Rate-limit refusals", unit: "count" },
  budget_refusals: { label: "Budget refusals", unit: "count" },
  upstream_failures: { label: "Upstream failures", unit: "count" },
};

/** Comparators as symbols, and as words for screen readers and notifications. */
export const monitorComparatorInfo: Record<MonitorComparator, { symbol: string; label: string }> = {
  gt: { symbol: ">", label: "above" },
  gte: { symbol: "≥", label: "at or above" },
  lt: { symbol: "<", label: "below" },
  lte: { symbol: "≤", label: "at or below" },
};

/** Scope kinds as the form and the table name them. */
export const monitorScopeInfo: Record<MonitorScopeKind, { label: string; each: string }> = {
  organization: { label: "Whole organization", each: "" },
  project: { label: "Project", each: "Each project" },
  team: { label: "Team", each: "Each team" },
  api_key: { label: "API key", each: "Each API key" },
  model: { label: "Model", each: "Each model" },
  connection: { label: "Connection", each: "Each connection" },
  client_label: { label: "Client label", each: "Each client label" },
};

export const monitorSeverityLabels: Record<MonitorSeverity, string> = { info: "Info", warning: "Warning", critical: "Critical" };

/** A metric's value as people read it ("$1.25", "12.5%", "850 ms", "1,204"); "–" when nothing was measured. */
export function formatMonitorValue(metric: MonitorMetric, value: number | null): string {
  if (value === null) return "–";
  switch (monitorMetricInfo[metric].unit) {
    case "dollars":
      return formatMicros(value);
    case "percent":
      return formatPercent(value);
    case "milliseconds":
      return formatDuration(value);
    case "count":
      return formatNumber(Math.round(value * 100) / 100);
  }
}

/** A threshold as the form shows it, in the metric's unit (dollars, percent, ms, count). */
export function thresholdToText(metric: MonitorMetric, threshold: number): string {
  switch (monitorMetricInfo[metric].unit) {
    case "dollars":
      return String(threshold / 1_000_000);
    case "percent":
      return String(Math.round(threshold * 100 * 1_000_000) / 1_000_000);
    default:
      return String(threshold);
  }
}

/** The threshold field's label and hint for a metric. */
export function thresholdFieldOf(metric: MonitorMetric): { label: string; hint: string; invalid: string } {
  switch (monitorMetricInfo[metric].unit) {
    case "dollars":
      return { label: "Threshold (USD)", hint: "Spend in the window, e.g. 25 or 0.50", invalid: "Enter an amount in dollars, e.g. 25 or 0.50." };
    case "percent":
      return { label: "Threshold (%)", hint: "Share of calls that failed, 0 to 100", invalid: "Enter a percentage from 0 to 100, e.g. 5." };
    case "milliseconds":
      return { label: "Threshold (ms)", hint: "Milliseconds, e.g. 2000", invalid: "Enter a number of milliseconds, e.g. 2000." };
    case "count":
      return { label: "Threshold", hint: "A number of calls or tokens in the window", invalid: "Enter a number, e.g. 100." };
  }
}

/** Parses a threshold typed in the metric's unit into the API's unit (micros, a 0..1 fraction, ms, a count); null when it is not one. */
export function parseThreshold(metric: MonitorMetric, text: string): number | null {
  const unit = monitorMetricInfo[metric].unit;
  if (unit === "dollars") return parseDollarsToMicros(text);
  const cleaned = text.trim().replace(/,/g, "").replace(unit === "percent" ? /\s*%$/ : /\s*ms$/, "");
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return null;
  const number = Number(cleaned);
  if (unit === "percent") return number > 100 ? null : number / 100;
  return number;
}

/** Minutes as a duration ("5 min", "1 h", "1 h 30 min", "1 day", "7 days"). */
export function formatMinutes(minutes: number): string {
  if (minutes >= 1440 && minutes % 1440 === 0) return minutes === 1440 ? "1 day" : `${minutes / 1440} days`;
  if (minutes >= 60) return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${minutes} min`;
}

/** What a rule fires on, in one line: "Error rate > 5% over 15 min (at least 20 calls)". */
export function describeMonitorCondition(rule: Pick<MonitorRule, "metric" | "comparator" | "threshold" | "window_minutes" | "min_calls">): string {
  const condition = `${monitorMetricInfo[rule.metric].label} ${monitorComparatorInfo[rule.comparator].symbol} ${formatMonitorValue(rule.metric, rule.threshold)} over ${formatMinutes(rule.window_minutes)}`;
  return rule.min_calls ? `${condition} (at least ${formatNumber(rule.min_calls)} calls)` : condition;
}
