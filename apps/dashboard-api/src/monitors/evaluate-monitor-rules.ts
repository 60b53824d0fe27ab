import type { MonitorEventKind } from "@gateway/contracts";
import {
  applyMonitorTransition,
  createMonitorStates,
  listEnabledMonitorRules,
  listMonitorStates,
  monitorRollupDimensions,
  recordMonitorValues,
  sumMonitorRollupWindows,
  type DatabaseClient,
  type MonitorRuleRecord,
  type MonitorStateRecord,
  type NewMonitorState,
  type SqlClient,
} from "@gateway/db";
import { monitorActivityUrl } from "./monitor-activity-url.js";
import { addSums, breaches, monitorMetricValue, scopeDimension, type MeasuredValue } from "./monitor-metric-value.js";

/** Options of {@link evaluateMonitorRules}. */
export interface EvaluateMonitorRulesOptions {
  database: DatabaseClient & SqlClient;
  /** The lease the evaluation runs under (every state change is fenced by it). */
  lease: { name: string; holder: string };
  now: Date;
}

/** What one evaluation did. */
export interface MonitorEvaluationResult {
  rules: number;
  /** Events recorded (fired, renotified, resolved). */
  events: number;
  /** Transitions another writer had already made, or that lost the lease (not recorded). */
  lost: number;
}

/** Sums per scope value of one (window, scope kind): the key "" holds the total over all values. */
type SumsByValue = Map<string, Map<string, number[]>>;

/**
 * One evaluation of every enabled rule: the metrics of every window and scope from the
 * monitors' rollup in one query, then per rule and scope value the state machine
 * ok/resolved -> firing -> (renotified) -> resolved. Windows end at the start of the current
 * minute (whole minutes only). Muted rules keep their stored state and notify nothing until the
 * mute ends. Each change and its event are written in one transaction fenced by the lease; first
 * states without an event are created together in one such transaction, and the values of
 * unchanged states are written in batches.
 */
export async function evaluateMonitorRules(options: EvaluateMonitorRulesOptions): Promise<MonitorEvaluationResult> {
  const { database, now } = options;
  const end = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const rules = await listEnabledMonitorRules(database);
  const result: MonitorEvaluationResult = { rules: rules.length, events: 0, lost: 0 };
  if (rules.length === 0) return result;
  const sums = await loadWindowSums(database, rules, end);
  const states = new Map<string, MonitorStateRecord[]>();
  for (const state of await listMonitorStates(database, rules.map((rule) => rule.id))) {
    const list = states.get(state.ruleId) ?? [];
    list.push(state);
    states.set(state.ruleId, list);
  }
  const values: Array<{ ruleId: string; scopeValue: string; value: number | null; calls: number; evaluatedAt: Date }> = [];
  const created: NewMonitorState[] = [];
  for (const rule of rules) {
    const windowStart = new Date(end.getTime() - rule.windowMinutes * 60_000);
    const byValue = sums.get(`${rule.windowMinutes}:${rule.scopeKind}`)?.get(rule.organizationId) ?? new Map<string, number[]>();
    const ruleStates = new Map((states.get(rule.id) ?? []).map((state) => [state.scopeValue, state]));
    const each = rule.scopeKind !== "organization" && rule.scopeValue === null;
    // Scope values to judge: the one value, or each value seen in the window plus each with a stored state (to resolve it).
    const candidates = each ? new Set([...[...byValue.keys()].filter((value) => value !== ""), ...ruleStates.keys()]) : new Set([""]);
    const muted = rule.mutedUntil !== null && rule.mutedUntil.getTime() > now.getTime();
    for (const scopeValue of candidates) {
      const lookup = each ? scopeValue : (rule.scopeValue ?? "");
      const measured = monitorMetricValue(rule.metric, byValue.get(lookup) ?? null);
      const state = ruleStates.get(scopeValue) ?? null;
      const change = muted ? null : decide(rule, state, measured, now);
      if (change === null) {
        if (state !== null && (state.value !== measured.value || state.calls !== measured.calls)) {
          values.push({ ruleId: rule.id, scopeValue, value: measured.value, calls: measured.calls, evaluatedAt: now });
        }
        continue;
      }
      if (state === null && change.event === null) {
        created.push({ ruleId: rule.id, scopeValue, status: change.status, value: measured.value, calls: measured.calls, since: now, evaluatedAt: now, lastNotifiedAt: null });
        continue;
      }
      const notifies = change.event !== null && rule.channelIds.length > 0;
      const applied = await applyMonitorTransition(database, {
        lease: { ...options.lease, now },
        ruleId: rule.id,
        scopeValue,
        expected: state === null ? null : { status: state.status, since: state.since, lastNotifiedAt: state.lastNotifiedAt },
        next: {
          status: change.status,
          value: measured.value,
          calls: measured.calls,
          since: change.status === state?.status ? state.since : now,
          evaluatedAt: now,
          lastNotifiedAt: notifies ? now : (state?.lastNotifiedAt ?? null),
        },
        event:
          change.event === null
            ? null
            : {
                organizationId: rule.organizationId,
                kind: change.event,
                severity: rule.severity,
                metric: rule.metric,
                comparator: rule.comparator,
                value: measured.value,
                threshold: rule.threshold,
                windowMinutes: rule.windowMinutes,
                calls: measured.calls,
                windowStart,
                windowEnd: end,
                activityUrl: monitorActivityUrl({ metric: rule.metric, scopeKind: rule.scopeKind, scopeValue: each ? scopeValue : rule.scopeValue, start: windowStart, end }),
                deliveries: rule.channelIds.map((channelId) => ({ channel_id: channelId, channel_name: null, status: "pending" as const, error: null, attempted_at: null, next_attempt_at: null, attempts: [] })),
                occurredAt: now,
              },
      });
      if (!applied) result.lost += 1;
      else if (change.event !== null) result.events += 1;
    }
  }
  result.lost += created.length - (await createMonitorStates(database, { ...options.lease, now }, created));
  await recordMonitorValues(database, values);
  return result;
}

/** The next status of a state and the event it records, or null when nothing changes. */
function decide(
  rule: MonitorRuleRecord,
  state: MonitorStateRecord | null,
  measured: MeasuredValue,
  now: Date,
): { status: MonitorStateRecord["status"]; event: MonitorEventKind | null } | null {
  const enoughCalls = rule.minCalls === null || measured.calls >= rule.minCalls;
  const firing = state?.status === "firing";
  if (!enoughCalls) return state === null ? { status: "ok", event: null } : null;
  const breached = breaches(measured.value, rule.comparator, rule.threshold);
  if (breached && !firing) return { status: "firing", event: "fired" };
  if (breached && firing) {
    const due =
      rule.renotifyMinutes !== null && rule.channelIds.length > 0 && state.lastNotifiedAt !== null && now.getTime() - state.lastNotifiedAt.getTime() >= rule.renotifyMinutes * 60_000;
    return due ? { status: "firing", event: "renotified" } : null;
  }
  if (firing) return { status: "resolved", event: "resolved" };
  // A rule on one value keeps a row from its first evaluation (its current value shows); each-value rules only for values that fired.
  return state === null && (rule.scopeKind === "organization" || rule.scopeValue !== null) ? { status: "ok", event: null } : null;
}

/**
 * Sums per `window:scopeKind` -> organization -> scope value ("" = all values together): ONE
 * query reads every window of every rule grouped by all the rollup's dimensions, and each scope
 * kind adds those groups up by its own dimension here.
 */
async function loadWindowSums(database: SqlClient, rules: readonly MonitorRuleRecord[], end: Date): Promise<Map<string, SumsByValue>> {
  // Only the dimensions some rule scopes on (the organization always: every rule belongs to one).
  const used = new Set<string>(rules.map((rule) => scopeDimension[rule.scopeKind]));
  const groupBy = monitorRollupDimensions.filter((dimension) => dimension === "organization_id" || used.has(dimension));
  const windows = await sumMonitorRollupWindows(database, {
    organizationIds: [...new Set(rules.map((rule) => rule.organizationId))],
    end,
    windowsMinutes: [...new Set(rules.map((rule) => rule.windowMinutes))],
    groupBy,
  });
  const sums = new Map<string, SumsByValue>();
  for (const rule of rules) {
    const key = `${rule.windowMinutes}:${rule.scopeKind}`;
    if (sums.has(key)) continue;
    const position = rule.scopeKind === "organization" ? -1 : groupBy.indexOf(scopeDimension[rule.scopeKind]);
    const byOrganization: SumsByValue = new Map();
    for (const row of windows.get(rule.windowMinutes) ?? []) {
      const organizationId = row.key[0]!;
      const value = position === -1 ? "" : row.key[position]!;
      const byValue = byOrganization.get(organizationId) ?? new Map<string, number[]>();
      byOrganization.set(organizationId, byValue);
      const total = byValue.get("") ?? [];
      addSums(total, row.values);
      byValue.set("", total);
      if (value !== "") {
        const sum = byValue.get(value) ?? [];
        addSums(sum, row.values);
        byValue.set(value, sum);
      }
    }
    sums.set(key, byOrganization);
  }
  return sums;
}
