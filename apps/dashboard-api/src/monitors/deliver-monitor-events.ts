import {
  claimMonitorEventDeliveries,
  getMonitorRule,
  getNotificationChannelWithConfig,
  listPendingMonitorEvents,
  recordMonitorDeliveries,
  recordNotificationDelivery,
  type DatabaseClient,
  type MonitorDeliveryRecord,
  type MonitorEventRecord,
  type MonitorRuleRecord,
  type SecretBox,
  type SqlClient,
} from "@gateway/db";
import { deliverNotification, type NotificationEvent, type NotificationMailer } from "@gateway/pipeline";

/** Options of {@link deliverMonitorEvents}. */
export interface DeliverMonitorEventsOptions {
  database: DatabaseClient & SqlClient;
  secretBox: SecretBox;
  mailer: NotificationMailer | null;
  timeoutMs: number;
  /** The dashboard's public URL: notifications link to the matching activity there. */
  publicUrl: string;
  now(): Date;
  /** The `fetch` of webhook and Slack deliveries (tests); default the outbound address policy's. */
  fetch?: typeof fetch;
}

const metricLabels: Record<MonitorEventRecord["metric"], string> = {
  spend_micros: "spend (USD micros)",
  requests: "requests",
  tokens: "tokens",
  error_rate: "error rate",
  latency_p95_ms: "p95 latency (ms)",
  latency_p99_ms: "p99 latency (ms)",
  time_to_first_byte_ms: "time to first byte (ms)",
  guardrail_blocks: "guardrail blocks",
  rate_limit_refusals: "rate-limit refusals",
  budget_refusals: "budget refusals",
  upstream_failures: "upstream failures",
};
const comparatorSymbols = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

const formatValue = (value: number | null) => (value === null ? "no data" : Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/0+$/, ""));

/** The notification of a monitor event: rule, value, threshold, window and the link to the activity. */
export function monitorNotification(rule: Pick<MonitorRuleRecord, "name" | "description" | "scopeKind">, event: MonitorEventRecord, publicUrl: string): NotificationEvent {
  const metric = metricLabels[event.metric];
  const condition = `${metric} ${comparatorSymbols[event.comparator]} ${formatValue(event.threshold)}`;
  const scope = event.scopeValue === "" ? rule.scopeKind : `${rule.scopeKind} ${event.scopeValue}`;
  const link = `${publicUrl}${event.activityUrl}`;
  const verb = event.kind === "resolved" ? "resolved" : event.kind === "renotified" ? "still firing" : "fired";
  const title = `[${event.severity}] Monitor "${rule.name}" ${verb}: ${metric} ${formatValue(event.value)}`;
  const lines = [
    event.kind === "resolved"
      ? `The condition ${condition} no longer holds over the last ${event.windowMinutes} minutes for ${scope}: ${metric} is ${formatValue(event.value)} (${event.calls} calls).`
      : `${metric} is ${formatValue(event.value)} over the last ${event.windowMinutes} minutes for ${scope} (${event.calls} calls): the condition ${condition} holds.`,
    ...(rule.description ? [rule.description] : []),
    `Matching activity: ${link}`,
  ];
  return {
    id: event.id,
    type: `monitor.${event.kind}`,
    createdAt: event.occurredAt,
    title,
    text: lines.join("\n"),
    data: {
      monitor_id: event.ruleId,
      monitor_name: rule.name,
      kind: event.kind,
      severity: event.severity,
      metric: event.metric,
      comparator: event.comparator,
      value: event.value,
      threshold: event.threshold,
      window_minutes: event.windowMinutes,
      calls: event.calls,
      scope_kind: rule.scopeKind,
      scope_value: event.scopeValue === "" ? null : event.scopeValue,
      window_start: event.windowStart.toISOString(),
      window_end: event.windowEnd.toISOString(),
      activity_url: link,
    },
  };
}

/**
 * Sends the pending deliveries of monitor events (the outbox the evaluator fills in the same
 * transaction as a state change) and records each outcome on the event: `delivered`, or `failed`
 * with the reason. Each event is claimed before sending (one sender, even with two evaluators);
 * a delivery is attempted once, and a failure is recorded, not retried. A process that dies
 * between the claim and the record leaves the delivery shown as `pending`.
 */
export async function deliverMonitorEvents(options: DeliverMonitorEventsOptions): Promise<number> {
  const { database } = options;
  let attempted = 0;
  for (const event of await listPendingMonitorEvents(database)) {
    // Another evaluator (a former lease holder still finishing its tick) may be sending it already.
    if (!(await claimMonitorEventDeliveries(database, event.id))) continue;
    const rule = await getMonitorRule(database, event.organizationId, event.ruleId);
    const deliveries: MonitorDeliveryRecord[] = [];
    for (const delivery of event.deliveries) {
      if (delivery.status !== "pending") {
        deliveries.push(delivery);
        continue;
      }
      attempted += 1;
      const channel = await getNotificationChannelWithConfig(database, event.organizationId, delivery.channel_id, { secretBox: options.secretBox });
      const attemptedAt = options.now().toISOString();
      if (channel === null || rule === null) {
        deliveries.push({ ...delivery, status: "failed", error: channel === null ? "The channel no longer exists." : "The monitor no longer exists.", attempted_at: attemptedAt });
        continue;
      }
      if (!channel.enabled) {
        deliveries.push({ ...delivery, channel_name: channel.name, status: "failed", error: "The channel is disabled.", attempted_at: attemptedAt });
        continue;
      }
      const outcome = await deliverNotification(channel.config, monitorNotification(rule, event, options.publicUrl), {
        timeoutMs: options.timeoutMs,
        mailer: options.mailer,
        fetch: options.fetch,
      });
      await recordNotificationDelivery(database, channel.id, { ok: outcome.delivered, at: options.now() });
      deliveries.push({
        ...delivery,
        channel_name: channel.name,
        status: outcome.delivered ? "delivered" : "failed",
        error: outcome.delivered ? null : (outcome.failure ?? (outcome.status === null ? "Not delivered." : `HTTP ${outcome.status}`)),
        attempted_at: attemptedAt,
      });
    }
    await recordMonitorDeliveries(database, event.id, deliveries);
  }
  return attempted;
}
