import type { MonitorRule, RequestBody } from "../api/api-types.js";
import type { FormBody } from "../components/use-schema-form.js";
import { type MonitorComparator, type MonitorMetric, type MonitorScopeKind, type MonitorSeverity, parseThreshold, thresholdFieldOf, thresholdToText } from "./monitor-metrics.js";

/** The monitor form's fields (text as typed; numbers parsed when sent). */
export interface MonitorFormValues {
  name: string;
  description: string;
  metric: MonitorMetric;
  scope_kind: MonitorScopeKind;
  /** One project, team, key or connection id, model key or client label; "" watches each value separately. */
  scope_value: string;
  window_minutes: string;
  comparator: MonitorComparator;
  /** In the metric's unit (dollars, percent, ms, count). */
  threshold: string;
  /** "" for no minimum. */
  min_calls: string;
  severity: MonitorSeverity;
  channel_ids: string[];
  /** "" notifies once per firing. */
  renotify_minutes: string;
  enabled: boolean;
}

/** The body the form sends (create; the update takes the same fields). */
export type MonitorBody = RequestBody<"/api/monitors", "post">;

/** Where the API's param paths land on the form. */
export const monitorFieldOf: Record<string, string> = { "scope.kind": "scope_kind", "scope.value": "scope_value", scope: "scope_value" };

/** The form values of an existing rule (or the defaults of a new one: error rate above 5 % over 15 minutes, organization-wide). */
export function monitorToFormValues(rule: MonitorRule | null): MonitorFormValues {
  const metric = rule?.metric ?? "error_rate";
  return {
    name: rule?.name ?? "",
    description: rule?.description ?? "",
    metric,
    scope_kind: rule?.scope.kind ?? "organization",
    scope_value: rule?.scope.value ?? "",
    window_minutes: String(rule?.window_minutes ?? 15),
    comparator: rule?.comparator ?? "gt",
    threshold: rule ? thresholdToText(metric, rule.threshold) : "5",
    min_calls: rule ? (rule.min_calls === null ? "" : String(rule.min_calls)) : "20",
    severity: rule?.severity ?? "warning",
    channel_ids: rule?.channel_ids ?? [],
    renotify_minutes: rule?.renotify_minutes === null || rule?.renotify_minutes === undefined ? "" : String(rule.renotify_minutes),
    enabled: rule?.enabled ?? true,
  };
}

/**
 * The request body of the form, and the errors of the fields it could not convert (the rest is
 * checked with the API's own schema by the form before it is sent).
 */
export function monitorFormToBody(values: MonitorFormValues): FormBody & { body: MonitorBody } {
  const errors: Record<string, string> = {};
  const threshold = parseThreshold(values.metric, values.threshold);
  if (threshold === null) errors.threshold = thresholdFieldOf(values.metric).invalid;
  const minCallsText = values.min_calls.trim();
  const minCalls = minCallsText === "" ? null : /^\d+$/.test(minCallsText) ? Number(minCallsText) : Number.NaN;
  if (Number.isNaN(minCalls)) errors.min_calls = "Enter a whole number of calls, or leave it empty for no minimum.";
  const scopeValue = values.scope_value.trim();
  const description = values.description.trim();
  return {
    body: {
      name: values.name.trim(),
      description: description === "" ? null : description,
      metric: values.metric,
      scope: { kind: values.scope_kind, value: values.scope_kind === "organization" || scopeValue === "" ? null : scopeValue },
      window_minutes: Number(values.window_minutes),
      comparator: values.comparator,
      threshold: threshold ?? 0,
      min_calls: Number.isNaN(minCalls) ? null : minCalls,
      severity: values.severity,
      channel_ids: values.channel_ids,
      renotify_minutes: values.renotify_minutes === "" ? null : Number(values.renotify_minutes),
      enabled: values.enabled,
    },
    errors,
  };
}

/** Preset durations offered for a window, in minutes (a rule's own value is offered too when it is none of them). */
export const windowChoices = [5, 10, 15, 30, 60, 180, 360, 720, 1440] as const;
/** Preset re-notify intervals, in minutes. */
export const renotifyChoices = [15, 30, 60, 240, 720, 1440, 10_080] as const;

/** The presets plus the current value, in order (a rule made through the API may use any minute count). */
export function choicesWith(presets: readonly number[], current: string): number[] {
  const value = Number(current);
  return current === "" || !Number.isInteger(value) || presets.includes(value) ? [...presets] : [...presets, value].sort((left, right) => left - right);
}

/** How long a mute lasts: a preset number of minutes, or until a time typed in the form. */
export type MuteChoice = { minutes: number } | { until: string };

/**
 * The end of a mute as the API takes it (ISO 8601), from a preset or a local date and time
 * typed in a `datetime-local` field; an error when that time is not a time, or not in the future.
 */
export function muteUntilOf(choice: MuteChoice, now: Date): { until: string } | { error: string } {
  if ("minutes" in choice) return { until: new Date(now.getTime() + choice.minutes * 60_000).toISOString() };
  const until = new Date(choice.until);
  if (choice.until.trim() === "" || Number.isNaN(until.getTime())) return { error: "Enter a date and time." };
  if (until.getTime() <= now.getTime()) return { error: "Enter a time in the future." };
  return { until: until.toISOString() };
}
