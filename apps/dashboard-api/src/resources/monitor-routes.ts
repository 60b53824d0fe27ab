import {
  monitorCreateBodySchema,
  monitorEventSchema,
  monitorEventsQuerySchema,
  monitorMuteBodySchema,
  monitorRuleSchema,
  monitorSeriesQuerySchema,
  monitorSeriesSchema,
  monitorUpdateBodySchema,
  type MonitorRule,
  type MonitorState,
  type MonitorStatus,
} from "@gateway/contracts";
import {
  createMonitorRule,
  deleteMonitorRule,
  getApiKey,
  getConnection,
  getMonitorRule,
  getProject,
  getTeam,
  listMonitorEvents,
  listMonitorRules,
  listMonitorStates,
  listNotificationChannels,
  setMonitorRuleMute,
  sumMonitorRollups,
  updateMonitorRule,
  type MonitorEventRecord,
  type MonitorRuleInput,
  type MonitorRuleRecord,
  type MonitorStateRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import type { z } from "zod";
import { monitorActivityUrl } from "../monitors/monitor-activity-url.js";
import { addSums, monitorMetricValue, scopeDimension } from "../monitors/monitor-metric-value.js";
import { deletedObjectSchema, idParams, iso } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema, pageOf } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

const params = idParams("monitor_id");
const statusRank: Record<MonitorStatus, number> = { firing: 3, muted: 2, resolved: 1, ok: 0 };

/** Renders a rule with its states (`muted` while the rule is muted and a state is firing). */
export function presentMonitor(rule: MonitorRuleRecord, states: readonly MonitorStateRecord[], now: Date): MonitorRule {
  const muted = rule.mutedUntil !== null && rule.mutedUntil.getTime() > now.getTime();
  const presented: MonitorState[] = states.map((state) => {
    const end = new Date(Math.floor(state.evaluatedAt.getTime() / 60_000) * 60_000);
    const scopeValue = state.scopeValue === "" ? rule.scopeValue : state.scopeValue;
    return {
      scope_value: state.scopeValue === "" ? null : state.scopeValue,
      status: muted && state.status === "firing" ? "muted" : state.status,
      value: state.value,
      calls: state.calls,
      since: iso(state.since),
      evaluated_at: iso(state.evaluatedAt),
      activity_url: monitorActivityUrl({ metric: rule.metric, scopeKind: rule.scopeKind, scopeValue, start: new Date(end.getTime() - rule.windowMinutes * 60_000), end }),
    };
  });
  presented.sort((left, right) => statusRank[right.status] - statusRank[left.status] || (left.scope_value ?? "").localeCompare(right.scope_value ?? ""));
  const evaluated = states.map((state) => state.evaluatedAt.getTime());
  return {
    id: rule.id,
    name: rule.name,
    description: rule.description,
    metric: rule.metric,
    scope: { kind: rule.scopeKind, value: rule.scopeValue },
    window_minutes: rule.windowMinutes,
    comparator: rule.comparator,
    threshold: rule.threshold,
    min_calls: rule.minCalls,
    severity: rule.severity,
    channel_ids: rule.channelIds,
    renotify_minutes: rule.renotifyMinutes,
    enabled: rule.enabled,
    muted_until: muted ? iso(rule.mutedUntil) : null,
    status: presented[0]?.status ?? "ok",
    states: presented,
    last_evaluated_at: evaluated.length === 0 ? null : new Date(Math.max(...evaluated)).toISOString(),
    created_at: iso(rule.createdAt),
    updated_at: iso(rule.updatedAt),
    object: "monitor",
  };
}

/** Renders a monitor event. */
export function presentMonitorEvent(event: MonitorEventRecord): z.infer<typeof monitorEventSchema> {
  return {
    id: event.id,
    monitor_id: event.ruleId,
    kind: event.kind,
    scope_value: event.scopeValue === "" ? null : event.scopeValue,
    severity: event.severity,
    metric: event.metric,
    comparator: event.comparator,
    value: event.value,
    threshold: event.threshold,
    window_minutes: event.windowMinutes,
    calls: event.calls,
    window_start: iso(event.windowStart),
    window_end: iso(event.windowEnd),
    activity_url: event.activityUrl,
    deliveries: event.deliveries,
    occurred_at: iso(event.occurredAt),
    object: "monitor.event",
  };
}

type RuleFields = Partial<z.output<typeof monitorCreateBodySchema>>;

/** The repository input of (part of) a body. */
function toInput(body: RuleFields): Partial<Omit<MonitorRuleInput, "organizationId">> {
  const input: Partial<Omit<MonitorRuleInput, "organizationId">> = {};
  if (body.name !== undefined) input.name = body.name;
  if (body.description !== undefined) input.description = body.description;
  if (body.metric !== undefined) input.metric = body.metric;
  if (body.scope !== undefined) {
    input.scopeKind = body.scope.kind;
    input.scopeValue = body.scope.value;
  }
  if (body.window_minutes !== undefined) input.windowMinutes = body.window_minutes;
  if (body.comparator !== undefined) input.comparator = body.comparator;
  if (body.threshold !== undefined) input.threshold = body.threshold;
  if (body.min_calls !== undefined) input.minCalls = body.min_calls;
  if (body.severity !== undefined) input.severity = body.severity;
  if (body.channel_ids !== undefined) input.channelIds = body.channel_ids;
  if (body.renotify_minutes !== undefined) input.renotifyMinutes = body.renotify_minutes;
  if (body.enabled !== undefined) input.enabled = body.enabled;
  return input;
}

/**
 * Checks what a rule refers to: its channels and its scope's id (project, team, key,
 * connection) belong to the organization. Models and client labels are free text.
 */
async function assertReferences(services: DashboardServices, organizationId: string, body: RuleFields): Promise<void> {
  if (body.channel_ids !== undefined && body.channel_ids.length > 0) {
    const known = new Set((await listNotificationChannels(services.database, organizationId)).map((channel) => channel.id));
    const unknown = body.channel_ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw new GatewayError("invalid_request", { message: `No notification channel ${unknown} in this organization.`, param: "channel_ids" });
  }
  const scope = body.scope;
  if (scope === undefined || scope.value === null) return;
  const lookups: Partial<Record<typeof scope.kind, (id: string) => Promise<unknown>>> = {
    project: (id) => getProject(services.database, organizationId, id),
    team: (id) => getTeam(services.database, organizationId, id),
    api_key: (id) => getApiKey(services.database, organizationId, id),
    connection: (id) => getConnection(services.database, organizationId, id),
  };
  const lookup = lookups[scope.kind];
  if (lookup !== undefined && (await lookup(scope.value)) === null) {
    throw new GatewayError("invalid_request", { message: `No ${scope.kind.replace("_", " ")} ${scope.value} in this organization.`, param: "scope.value" });
  }
}

/** Monitor routes under `/api/monitors`. */
export function createMonitorRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getMonitorRule(services.database, organizationId, id).then((row) => found(row, "Monitor"));
  const present = async (rule: MonitorRuleRecord) => presentMonitor(rule, await listMonitorStates(services.database, [rule.id]), services.now());
  return [
    defineRoute({
      method: "get",
      path: "/api/monitors",
      operationId: "list_monitors",
      summary: "List monitors",
      description: "Every monitor of the organization with its current state per scope value.",
      tag: "Monitors",
      access: "monitors:read",
      responses: [{ status: 200, description: "Monitors", schema: listObjectSchema(monitorRuleSchema) }],
      async handler({ principal }) {
        const rules = await listMonitorRules(services.database, principal.organization.id);
        const states = await listMonitorStates(services.database, rules.map((rule) => rule.id));
        const now = services.now();
        return { status: 200, body: fullList(rules.map((rule) => presentMonitor(rule, states.filter((state) => state.ruleId === rule.id), now))) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/monitors",
      operationId: "create_monitor",
      summary: "Create a monitor",
      description:
        "An alert rule over the recorded usage: a metric over a trailing window (5 minutes to a day) of the organization or of one " +
        "(or each) project, team, key, model, connection or client label, compared with a threshold. Evaluated every minute; it " +
        "fires, renotifies and resolves through the named notification channels.",
      tag: "Monitors",
      access: "monitors:write",
      body: monitorCreateBodySchema,
      exampleBody: {
        name: "provider errors",
        metric: "error_rate",
        scope: { kind: "connection", value: null },
        window_minutes: 10,
        comparator: "gt",
        threshold: 0.2,
        min_calls: 20,
        severity: "critical",
        channel_ids: [],
      },
      responses: [{ status: 201, description: "The monitor", schema: monitorRuleSchema }],
      async handler(context) {
        const { principal, body } = context;
        await assertReferences(services, principal.organization.id, body);
        const input = toInput(body) as Omit<MonitorRuleInput, "organizationId">;
        const row = await withConflict(
          () => createMonitorRule(services.database, { ...input, organizationId: principal.organization.id, mutedUntil: null }),
          "A monitor with this name already exists.",
          "name",
        );
        const after = await present(row);
        await auditChange(services, context, { action: "monitor.created", targetType: "monitor", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/monitors/{monitor_id}",
      operationId: "get_monitor",
      summary: "Get a monitor",
      tag: "Monitors",
      access: "monitors:read",
      params,
      responses: [{ status: 200, description: "The monitor", schema: monitorRuleSchema }],
      async handler({ principal, params: { monitor_id } }) {
        return { status: 200, body: await present(await load(principal.organization.id, monitor_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/monitors/{monitor_id}",
      operationId: "update_monitor",
      summary: "Update a monitor",
      description: "A change of what is measured (metric, scope, window, comparator, threshold, minimum calls) starts the monitor over from `ok`.",
      tag: "Monitors",
      access: "monitors:write",
      params,
      body: monitorUpdateBodySchema,
      exampleBody: { threshold: 0.3 },
      responses: [{ status: 200, description: "The monitor", schema: monitorRuleSchema }],
      async handler(context) {
        const { principal, params: { monitor_id }, body } = context;
        const existing = await load(principal.organization.id, monitor_id);
        await assertReferences(services, principal.organization.id, body);
        const before = await present(existing);
        const row = await withConflict(() => updateMonitorRule(services.database, existing.organizationId, existing.id, toInput(body)), "A monitor with this name already exists.", "name");
        const after = await present(row);
        await auditChange(services, context, { action: "monitor.updated", targetType: "monitor", targetId: row.id, before, after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/monitors/{monitor_id}",
      operationId: "delete_monitor",
      summary: "Delete a monitor",
      description: "Deletes the monitor with its states and history.",
      tag: "Monitors",
      access: "monitors:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("monitor") }],
      async handler(context) {
        const { principal, params: { monitor_id } } = context;
        const existing = await load(principal.organization.id, monitor_id);
        const before = await present(existing);
        await deleteMonitorRule(services.database, principal.organization.id, existing.id);
        await auditChange(services, context, { action: "monitor.deleted", targetType: "monitor", targetId: existing.id, before });
        return { status: 200, body: { id: existing.id, object: "monitor" as const, deleted: true as const } };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/monitors/{monitor_id}/mute",
      operationId: "mute_monitor",
      summary: "Mute or unmute a monitor",
      description:
        "Until `until`, the monitor notifies nothing and its stored states stay as they are (a firing state shows as `muted`); " +
        "afterwards it is evaluated as usual (a condition that still holds fires then). `until: null` unmutes at once.",
      tag: "Monitors",
      access: "monitors:write",
      params,
      body: monitorMuteBodySchema,
      exampleBody: { until: "2030-01-01T00:00:00.000Z" },
      responses: [{ status: 200, description: "The monitor", schema: monitorRuleSchema }],
      async handler(context) {
        const { principal, params: { monitor_id }, body } = context;
        const existing = await load(principal.organization.id, monitor_id);
        let until: Date | null = null;
        if (body.until !== null) {
          until = new Date(body.until);
          const now = services.now().getTime();
          if (Number.isNaN(until.getTime()) || until.getTime() <= now || until.getTime() > now + 90 * 86_400_000) {
            throw new GatewayError("invalid_request", { message: "until must be an ISO 8601 time in the future, at most 90 days ahead.", param: "until" });
          }
        }
        const row = await setMonitorRuleMute(services.database, principal.organization.id, existing.id, until);
        const after = await present(row);
        await auditChange(services, context, { action: until === null ? "monitor.unmuted" : "monitor.muted", targetType: "monitor", targetId: row.id, after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/monitors/{monitor_id}/events",
      operationId: "list_monitor_events",
      summary: "List a monitor's events",
      description: "Its firing history, newest first: fired, renotified and resolved, each with the measured value and every channel's delivery: its status, every attempt and, while a failed delivery waits for its retry (exponential backoff, 5 attempts in all), `next_attempt_at`.",
      tag: "Monitors",
      access: "monitors:read",
      params,
      query: monitorEventsQuerySchema,
      responses: [{ status: 200, description: "Events", schema: listObjectSchema(monitorEventSchema) }],
      async handler({ principal, params: { monitor_id }, query }) {
        const rule = await load(principal.organization.id, monitor_id);
        const page = await listMonitorEvents(services.database, rule.id, { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) });
        return { status: 200, body: pageOf(page, presentMonitorEvent) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/monitors/{monitor_id}/series",
      operationId: "get_monitor_series",
      summary: "Recent values of a monitor",
      description:
        "The monitor's metric over its window, ending at evenly spaced recent minutes (the newest includes the running minute so far), " +
        "computed from the same rollup the evaluator reads: for a small chart next to the threshold.",
      tag: "Monitors",
      access: "monitors:read",
      params,
      query: monitorSeriesQuerySchema,
      responses: [{ status: 200, description: "The series", schema: monitorSeriesSchema }],
      async handler({ principal, params: { monitor_id }, query }) {
        const rule = await load(principal.organization.id, monitor_id);
        // The newest point ends at the next whole minute: it includes the running minute so far.
        const end = Math.ceil((services.now().getTime() + 1) / 60_000) * 60_000;
        // Points one step apart; the step spreads the points over at least the window (at most a day back, the rollup's reach).
        const stepMinutes = Math.max(1, Math.min(Math.ceil(rule.windowMinutes / 5), Math.floor((1440 + 60 - rule.windowMinutes) / (query.points - 1))));
        const firstEnd = end - (query.points - 1) * stepMinutes * 60_000;
        const dimension = scopeDimension[rule.scopeKind];
        const scopeValue = rule.scopeValue ?? query.scope_value ?? null;
        const rows = await sumMonitorRollups(services.database, {
          organizationIds: [rule.organizationId],
          start: new Date(firstEnd - rule.windowMinutes * 60_000),
          end: new Date(end),
          groupBy: [],
          byMinute: true,
          ...(dimension !== "organization_id" && scopeValue !== null ? { where: { [dimension]: scopeValue } } : {}),
        });
        const byMinute = new Map(rows.map((row) => [row.bucketStart!.getTime(), row.values]));
        const points = Array.from({ length: query.points }, (_, index) => {
          const pointEnd = firstEnd + index * stepMinutes * 60_000;
          let sums: number[] | null = null;
          for (let minute = pointEnd - rule.windowMinutes * 60_000; minute < pointEnd; minute += 60_000) {
            const values = byMinute.get(minute);
            if (values === undefined) continue;
            sums ??= [];
            addSums(sums, values);
          }
          const measured = monitorMetricValue(rule.metric, sums);
          return { at: new Date(pointEnd).toISOString(), value: measured.value, calls: measured.calls };
        });
        return {
          status: 200,
          body: {
            monitor_id: rule.id,
            scope_value: scopeValue,
            metric: rule.metric,
            threshold: rule.threshold,
            window_minutes: rule.windowMinutes,
            step_minutes: stepMinutes,
            points,
            object: "monitor.series" as const,
          },
        };
      },
    }),
  ];
}
