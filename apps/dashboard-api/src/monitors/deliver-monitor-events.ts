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
  /** Retries of failed deliveries (default {@link defaultMonitorDeliveryRetry}). */
  retry?: MonitorDeliveryRetry;
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

/** How a failed delivery is retried. */
export interface MonitorDeliveryRetry {
  /** Attempts per delivery in all (the first one included); after the last failure the delivery is `failed`. */
  maxAttempts: number;
  /** The wait before the second attempt; each further wait doubles. */
  backoffMs: number;
}

/** The default retry: 5 attempts over about 15 minutes (1, 2, 4 and 8 minutes apart). */
export const defaultMonitorDeliveryRetry: MonitorDeliveryRetry = { maxAttempts: 5, backoffMs: 60_000 };

/** Whether a pending delivery is due at `now` (never attempted, or its retry time has come). */
const isDue = (delivery: MonitorDeliveryRecord, now: Date) => delivery.status === "pending" && (delivery.next_attempt_at === null || Date.parse(delivery.next_attempt_at) <= now.getTime());

/**
 * Sends the due deliveries of monitor events (the outbox the evaluator fills in the same
 * transaction as a state change) and records every attempt on the event. A failed attempt
 * (webhook or Slack 5xx, timeout, network error, SMTP failure) is retried with exponential
 * backoff up to `retry.maxAttempts` in all, then the delivery is `failed`; a channel that is gone
 * or disabled fails at once. Each event is claimed before sending (one sender, even with two
 * evaluators) and a delivered channel is never sent again; a process that dies between the claim
 * and the record leaves the delivery shown as `pending` (not resent: at most once).
 */
export async function deliverMonitorEvents(options: DeliverMonitorEventsOptions): Promise<number> {
  const { database } = options;
  const retry = options.retry ?? defaultMonitorDeliveryRetry;
  let attempted = 0;
  for (const event of await listPendingMonitorEvents(database)) {
    // Only events with a delivery due now: the others wait for their retry time.
    if (!event.deliveries.some((delivery) => isDue(delivery, options.now()))) continue;
    // Another evaluator (a former lease holder still finishing its tick) may be sending it already.
    if (!(await claimMonitorEventDeliveries(database, event.id))) continue;
    const rule = await getMonitorRule(database, event.organizationId, event.ruleId);
    const deliveries: MonitorDeliveryRecord[] = [];
    for (const delivery of event.deliveries) {
      const attemptedAt = options.now();
      if (!isDue(delivery, attemptedAt)) {
        deliveries.push(delivery);
        continue;
      }
      attempted += 1;
      const channel = await getNotificationChannelWithConfig(database, event.organizationId, delivery.channel_id, { secretBox: options.secretBox });
      const final = (error: string, channelName: string | null) => ({
        ...delivery,
        channel_name: channelName,
        status: "failed" as const,
        error,
        attempted_at: attemptedAt.toISOString(),
        next_attempt_at: null,
        attempts: [...delivery.attempts, { attempted_at: attemptedAt.toISOString(), outcome: "failed" as const, error }],
      });
      if (channel === null || rule === null) {
        deliveries.push(final(channel === null ? "The channel no longer exists." : "The monitor no longer exists.", channel?.name ?? delivery.channel_name));
        continue;
      }
      if (!channel.enabled) {
        deliveries.push(final("The channel is disabled.", channel.name));
        continue;
      }
      const outcome = await deliverNotification(channel.config, monitorNotification(rule, event, options.publicUrl), {
        timeoutMs: options.timeoutMs,
        mailer: options.mailer,
        fetch: options.fetch,
      }).catch((error: unknown) => ({ delivered: false, status: null, failure: error instanceof Error ? error.message : "Not delivered." }));
      await recordNotificationDelivery(database, channel.id, { ok: outcome.delivered, at: attemptedAt });
      const error = outcome.delivered ? null : (outcome.failure ?? (outcome.status === null ? "Not delivered." : `HTTP ${outcome.status}`));
      const attempts = [...delivery.attempts, { attempted_at: attemptedAt.toISOString(), outcome: outcome.delivered ? ("delivered" as const) : ("failed" as const), error }];
      const retries = !outcome.delivered && attempts.length < retry.maxAttempts;
      deliveries.push({
        ...delivery,
        channel_name: channel.name,
        status: outcome.delivered ? "delivered" : retries ? "pending" : "failed",
        error,
        attempted_at: attemptedAt.toISOString(),
        next_attempt_at: retries ? new Date(attemptedAt.getTime() + retry.backoffMs * 2 ** (attempts.length - 1)).toISOString() : null,
        attempts,
      });
    }
    await recordMonitorDeliveries(database, event.id, deliveries);
  }
  return attempted;
}
