import { z } from "zod";

/**
 * Monitors: alert rules over the recorded usage, evaluated once a minute by one evaluator per
 * cluster, firing and resolving through the notification channels. This module is the API
 * contract of `/api/monitors` (the dashboard's routes and the web screen both read it).
 */

/**
 * What a monitor measures over its window.
 *
 * - `spend_micros`: recorded cost, USD * 1e6.
 * - `requests`: calls (any status).
 * - `tokens`: input + output tokens.
 * - `error_rate`: calls answered with status >= 400, as a fraction of calls (0..1).
 * - `latency_p95_ms` / `latency_p99_ms`: percentile of the total latency (from the latency histogram, interpolated within its bucket).
 * - `time_to_first_byte_ms`: mean time to the first byte of the answer, over the calls that have one.
 * - `guardrail_blocks`: calls refused by a guardrail (`guardrail_blocked`).
 * - `rate_limit_refusals`: calls refused by a gateway rate limit (`gateway_rate_limit_exceeded`).
 * - `budget_refusals`: calls refused by a hard budget (`hard_budget_*`).
 * - `upstream_failures`: calls that ended in an upstream error (`upstream_error`, `upstream_timeout`, `upstream_rate_limited`).
 */
export const monitorMetrics = [
  "spend_micros",
  "requests",
  "tokens",
  "error_rate",
  "latency_p95_ms",
  "latency_p99_ms",
  "time_to_first_byte_ms",
  "guardrail_blocks",
  "rate_limit_refusals",
  "budget_refusals",
  "upstream_failures",
] as const;

/** A metric of a monitor. */
export type MonitorMetric = (typeof monitorMetrics)[number];

/** What a monitor looks at: the whole organization, or calls of one (or each) project, team, key, model, connection, client label. */
export const monitorScopeKinds = ["organization", "project", "team", "api_key", "model", "connection", "client_label"] as const;

/** A scope kind of a monitor. */
export type MonitorScopeKind = (typeof monitorScopeKinds)[number];

/** How the measured value is compared with the threshold: the rule fires while `value <comparator> threshold`. */
export const monitorComparators = ["gt", "gte", "lt", "lte"] as const;

/** A comparator of a monitor. */
export type MonitorComparator = (typeof monitorComparators)[number];

/** How loud a monitor is (carried in its notifications). */
export const monitorSeverities = ["info", "warning", "critical"] as const;

/** A severity of a monitor. */
export type MonitorSeverity = (typeof monitorSeverities)[number];

/** The state of a rule for one scope value: `resolved` is `ok` after having fired; `muted` while the rule is muted and would fire. */
export const monitorStatuses = ["ok", "firing", "resolved", "muted"] as const;

/** A state of a rule for one scope value. */
export type MonitorStatus = (typeof monitorStatuses)[number];

/** The kinds of monitor event in a rule's history. */
export const monitorEventKinds = ["fired", "renotified", "resolved"] as const;

/** A kind of monitor event. */
export type MonitorEventKind = (typeof monitorEventKinds)[number];

/** Shortest and longest window, in minutes (5 minutes to 1 day). */
export const monitorWindowBoundsMinutes = { min: 5, max: 1440 } as const;

/** Shortest and longest re-notify interval, in minutes (5 minutes to 7 days). */
export const monitorRenotifyBoundsMinutes = { min: 5, max: 10_080 } as const;

const timestamp = z.string().describe("ISO 8601 UTC timestamp");
const identifier = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

/**
 * The scope of a rule. `value` names the project / team / key / connection id, the model key
 * (`<connection>/<model>` as the activity shows it) or the client label; `null` means **each
 * value**: the rule is evaluated (and fires) separately for every value seen in the window.
 * The organization scope takes no value.
 */
export const monitorScopeSchema = z
  .object({
    kind: z.enum(monitorScopeKinds),
    value: z.string().trim().min(1).max(300).nullable().describe("One value, or null for each value (always null for `organization`)"),
  })
  .refine((scope) => scope.kind !== "organization" || scope.value === null, { message: "The organization scope takes no value (send null).", path: ["value"] });

/** The scope of a rule. */
export type MonitorScope = z.infer<typeof monitorScopeSchema>;

/** The fields of a rule a caller sets (create body; the update body is the same fields, each optional). */
export const monitorRuleFieldsShape = {
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).nullable().describe("Free text carried in notifications"),
  metric: z.enum(monitorMetrics),
  scope: monitorScopeSchema,
  window_minutes: z
    .number()
    .int()
    .min(monitorWindowBoundsMinutes.min)
    .max(monitorWindowBoundsMinutes.max)
    .describe("The trailing window the metric is computed over (5 to 1440 minutes)"),
  comparator: z.enum(monitorComparators),
  threshold: z.number().finite().describe("In the metric's unit: micros, calls, tokens, a 0..1 fraction, or milliseconds"),
  min_calls: z
    .number()
    .int()
    .min(0)
    .max(1_000_000_000)
    .nullable()
    .describe("Fewer calls than this in the window never fire (nor resolve a firing state); null = no minimum"),
  severity: z.enum(monitorSeverities),
  channel_ids: z.array(identifier).max(20).describe("Notification channels to notify; empty = record events only"),
  renotify_minutes: z
    .number()
    .int()
    .min(monitorRenotifyBoundsMinutes.min)
    .max(monitorRenotifyBoundsMinutes.max)
    .nullable()
    .describe("While firing, notify again after this long; null = once per firing"),
  enabled: z.boolean(),
};

/** `POST /api/monitors` body. */
export const monitorCreateBodySchema = z.object({
  ...monitorRuleFieldsShape,
  description: monitorRuleFieldsShape.description.default(null),
  min_calls: monitorRuleFieldsShape.min_calls.default(null),
  severity: monitorRuleFieldsShape.severity.default("warning"),
  channel_ids: monitorRuleFieldsShape.channel_ids.default([]),
  renotify_minutes: monitorRuleFieldsShape.renotify_minutes.default(null),
  enabled: monitorRuleFieldsShape.enabled.default(true),
});

/** `PATCH /api/monitors/{monitor_id}` body: any of the fields, at least one. */
export const monitorUpdateBodySchema = z
  .object(monitorRuleFieldsShape)
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");

/** `POST /api/monitors/{monitor_id}/mute` body: mute until a time (no notifications, state `muted`), or `null` to unmute. */
export const monitorMuteBodySchema = z.object({
  until: timestamp.nullable().describe("End of the mute (ISO 8601, in the future, at most 90 days ahead); null unmutes"),
});

/** The state of a rule for one scope value. */
export const monitorStateSchema = z.object({
  scope_value: z.string().nullable().describe("The scope value this state is for (null for a rule on one value or the organization)"),
  status: z.enum(monitorStatuses),
  value: z.number().nullable().describe("The last evaluated value (null when there were no calls to measure)"),
  calls: z.number().int().describe("Calls in the window at the last evaluation"),
  since: timestamp.describe("When the state last changed status"),
  evaluated_at: timestamp,
  activity_url: z.string().describe("Dashboard path of the matching calls (`/activity?...`)"),
});

/** A monitor rule as the API shows it. */
export const monitorRuleSchema = z.object({
  id: z.string(),
  ...monitorRuleFieldsShape,
  muted_until: timestamp.nullable(),
  status: z.enum(monitorStatuses).describe("The worst state over its scope values: firing > muted > resolved > ok"),
  states: z.array(monitorStateSchema).describe("One per scope value that has been evaluated (firing ones first)"),
  last_evaluated_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("monitor"),
});

/** One attempt at delivering a monitor event to a channel. */
export const monitorDeliveryAttemptSchema = z.object({
  attempted_at: timestamp,
  outcome: z.enum(["delivered", "failed"]),
  error: z.string().nullable().describe("Why the attempt failed (HTTP status, SMTP answer, network error, timeout; never secrets)"),
});

/** One delivery of a monitor event to a channel. */
export const monitorDeliverySchema = z.object({
  channel_id: z.string(),
  channel_name: z.string().nullable().describe("Null when the channel has since been deleted"),
  status: z
    .enum(["pending", "delivered", "failed"])
    .describe("pending: not attempted yet, or a retry is due at `next_attempt_at`; failed: every attempt failed (or the channel is gone or disabled)"),
  error: z.string().nullable().describe("Why the last attempt failed (HTTP status, SMTP answer, network error; never secrets)"),
  attempted_at: timestamp.nullable().describe("The last attempt"),
  next_attempt_at: timestamp.nullable().describe("When a failed delivery is retried (null when none is due)"),
  attempts: z.array(monitorDeliveryAttemptSchema).describe("Every attempt, oldest first (a delivered one is never sent again)"),
});

/** An event of a rule's history: fired, re-notified or resolved, with what was measured and where it was sent. */
export const monitorEventSchema = z.object({
  id: z.string(),
  monitor_id: z.string(),
  kind: z.enum(monitorEventKinds),
  scope_value: z.string().nullable(),
  severity: z.enum(monitorSeverities),
  metric: z.enum(monitorMetrics),
  comparator: z.enum(monitorComparators),
  value: z.number().nullable(),
  threshold: z.number(),
  window_minutes: z.number().int(),
  calls: z.number().int(),
  window_start: timestamp,
  window_end: timestamp,
  activity_url: z.string(),
  deliveries: z.array(monitorDeliverySchema),
  occurred_at: timestamp,
  object: z.literal("monitor.event"),
});

/** `GET /api/monitors/{monitor_id}/series` query. */
export const monitorSeriesQuerySchema = z.object({
  scope_value: z.string().min(1).max(300).optional().describe("For an each-value rule: the value to chart (default: all values together)"),
  points: z.coerce.number().int().min(2).max(120).default(30).describe("How many points (default 30)"),
});

/** `GET /api/monitors/{monitor_id}/series`: the rule's metric over its window, ending at evenly spaced recent times. */
export const monitorSeriesSchema = z.object({
  monitor_id: z.string(),
  scope_value: z.string().nullable(),
  metric: z.enum(monitorMetrics),
  threshold: z.number(),
  window_minutes: z.number().int(),
  step_minutes: z.number().int().describe("Minutes between points"),
  points: z.array(z.object({ at: timestamp.describe("End of the window"), value: z.number().nullable(), calls: z.number().int() })),
  object: z.literal("monitor.series"),
});

/** `GET /api/monitors/{monitor_id}/events` query. */
export const monitorEventsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("Page size (1-100, default 50)."),
  cursor: z.string().min(1).max(300).optional().describe("The `next_cursor` of the previous page."),
});

/** A monitor rule as the API shows it. */
export type MonitorRule = z.infer<typeof monitorRuleSchema>;
/** The state of a rule for one scope value. */
export type MonitorState = z.infer<typeof monitorStateSchema>;
/** An event of a rule's history. */
export type MonitorEvent = z.infer<typeof monitorEventSchema>;
/** A chart series of a rule. */
export type MonitorSeries = z.infer<typeof monitorSeriesSchema>;

/**
 * The routes of monitors (all under the session cookie; reads need `monitors:read`, changes
 * `monitors:write`). Lists are the `{object:"list", data, has_more, next_cursor}` object.
 */
export const monitorRoutes = {
  list: { method: "get", path: "/api/monitors", response: "list of monitor" },
  create: { method: "post", path: "/api/monitors", body: "monitorCreateBodySchema", response: "monitor (201)" },
  get: { method: "get", path: "/api/monitors/{monitor_id}", response: "monitor" },
  update: { method: "patch", path: "/api/monitors/{monitor_id}", body: "monitorUpdateBodySchema", response: "monitor" },
  delete: { method: "delete", path: "/api/monitors/{monitor_id}", response: "{id, object:'monitor', deleted:true}" },
  mute: { method: "post", path: "/api/monitors/{monitor_id}/mute", body: "monitorMuteBodySchema", response: "monitor" },
  events: { method: "get", path: "/api/monitors/{monitor_id}/events", query: "monitorEventsQuerySchema", response: "list of monitor.event (newest first)" },
  series: { method: "get", path: "/api/monitors/{monitor_id}/series", query: "monitorSeriesQuerySchema", response: "monitor.series" },
} as const;
