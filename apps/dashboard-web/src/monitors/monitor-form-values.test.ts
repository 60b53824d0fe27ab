import { describe, expect, it } from "vitest";
import type { MonitorRule } from "../api/api-types.js";
import { choicesWith, monitorFormToBody, monitorToFormValues, muteUntilOf } from "./monitor-form-values.js";
import { describeMonitorCondition, formatMonitorValue, parseThreshold } from "./monitor-metrics.js";

/** What a caller sets on a rule: the form must send an existing rule's fields back as they are. */
const fields = {
  name: "Checkout spend",
  description: "Page the payments team",
  metric: "spend_micros",
  scope: { kind: "api_key", value: "key_checkout" },
  window_minutes: 45,
  comparator: "gte",
  threshold: 2_500_000,
  min_calls: null,
  severity: "critical",
  channel_ids: ["nch_slack"],
  renotify_minutes: 60,
  enabled: false,
} satisfies Partial<MonitorRule>;
const rule: MonitorRule = {
  ...fields,
  id: "mon_1",
  object: "monitor",
  muted_until: null,
  status: "ok",
  states: [],
  last_evaluated_at: null,
  created_at: "2026-11-28T10:00:00.000Z",
  updated_at: "2026-11-28T10:00:00.000Z",
};

describe("the monitor form", () => {
  it("sends an existing rule back unchanged (dollars shown, micros sent)", () => {
    const values = monitorToFormValues(rule);
    expect(values.threshold).toBe("2.5");
    const { body, errors } = monitorFormToBody(values);
    expect(errors).toEqual({});
    expect(body).toEqual(fields);
  });

  it("starts a new rule as an organization-wide error rate above 5 % over 15 minutes with at least 20 calls", () => {
    const { body, errors } = monitorFormToBody({ ...monitorToFormValues(null), name: " Errors " });
    expect(errors).toEqual({});
    expect(body).toMatchObject({ name: "Errors", description: null, metric: "error_rate", scope: { kind: "organization", value: null }, window_minutes: 15, comparator: "gt", threshold: 0.05, min_calls: 20, renotify_minutes: null, channel_ids: [] });
  });

  it("watches each value when no scope value is given, and never sends a value for the organization", () => {
    const base = monitorToFormValues(null);
    expect(monitorFormToBody({ ...base, scope_kind: "model", scope_value: "  " }).body.scope).toEqual({ kind: "model", value: null });
    expect(monitorFormToBody({ ...base, scope_kind: "client_label", scope_value: " checkout-service " }).body.scope).toEqual({ kind: "client_label", value: "checkout-service" });
    expect(monitorFormToBody({ ...base, scope_kind: "organization", scope_value: "left over" }).body.scope).toEqual({ kind: "organization", value: null });
  });

  it("reads thresholds in the metric's unit", () => {
    expect(parseThreshold("error_rate", "12.5%")).toBe(0.125);
    expect(parseThreshold("error_rate", "101")).toBeNull();
    expect(parseThreshold("spend_micros", "$1,250.50")).toBe(1_250_500_000);
    expect(parseThreshold("latency_p95_ms", "2,000 ms")).toBe(2000);
    expect(parseThreshold("requests", "100")).toBe(100);
    expect(parseThreshold("requests", "-1")).toBeNull();
    expect(parseThreshold("tokens", "")).toBeNull();
  });

  it("puts what it cannot convert on its field, in the metric's words", () => {
    const base = monitorToFormValues(null);
    expect(monitorFormToBody({ ...base, metric: "spend_micros", threshold: "ten" }).errors).toEqual({ threshold: "Enter an amount in dollars, e.g. 25 or 0.50." });
    expect(monitorFormToBody({ ...base, metric: "error_rate", threshold: "150" }).errors).toEqual({ threshold: "Enter a percentage from 0 to 100, e.g. 5." });
    expect(monitorFormToBody({ ...base, min_calls: "2.5" }).errors).toEqual({ min_calls: "Enter a whole number of calls, or leave it empty for no minimum." });
    expect(monitorFormToBody({ ...base, min_calls: "" }).body.min_calls).toBeNull();
  });

  it("offers a rule's own window among the presets", () => {
    expect(choicesWith([5, 15, 60], "45")).toEqual([5, 15, 45, 60]);
    expect(choicesWith([5, 15, 60], "15")).toEqual([5, 15, 60]);
    expect(choicesWith([5, 15, 60], "")).toEqual([5, 15, 60]);
  });
});

describe("muting", () => {
  const now = new Date("2026-11-28T12:00:00.000Z");

  it("ends a preset mute that many minutes from now", () => {
    expect(muteUntilOf({ minutes: 60 }, now)).toEqual({ until: "2026-11-28T13:00:00.000Z" });
  });

  it("takes a typed time in the future and refuses one in the past or none", () => {
    expect(muteUntilOf({ until: "2026-12-01T09:30:00Z" }, now)).toEqual({ until: "2026-12-01T09:30:00.000Z" });
    expect(muteUntilOf({ until: "2026-11-28T11:00:00Z" }, now)).toEqual({ error: "Enter a time in the future." });
    expect(muteUntilOf({ until: "" }, now)).toEqual({ error: "Enter a date and time." });
  });
});

describe("a rule in words", () => {
  it("names the metric, the comparison, the threshold in its unit, the window and the minimum of calls", () => {
    expect(describeMonitorCondition({ metric: "error_rate", comparator: "gt", threshold: 0.05, window_minutes: 15, min_calls: 20 })).toBe("Error rate > 5% over 15 min (at least 20 calls)");
    expect(describeMonitorCondition(rule)).toBe("Spend ≥ $2.50 over 45 min");
    expect(describeMonitorCondition({ metric: "latency_p99_ms", comparator: "gte", threshold: 2500, window_minutes: 1440, min_calls: null })).toBe("Latency (99th percentile) ≥ 2.5 s over 1 day");
  });

  it("shows no value as a dash, not as zero", () => {
    expect(formatMonitorValue("error_rate", null)).toBe("–");
    expect(formatMonitorValue("requests", 0)).toBe("0");
  });
});
