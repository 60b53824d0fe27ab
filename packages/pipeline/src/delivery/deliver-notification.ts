import type { NotificationChannelConfig } from "@gateway/contracts";
import { type DeliveryOutcome, postJson } from "./post-json.js";
import { signWebhookPayload, webhookSignatureHeader } from "./sign-webhook-payload.js";

/** One notification event (budget threshold, budget exceeded, rate limit exceeded, ...). */
export interface NotificationEvent {
  /** `evt_...`: the same id on every channel and retry (receivers deduplicate on it). */
  id: string;
  /** `budget.threshold`, `budget.exceeded`, `rate_limit.exceeded`, `notification.test`, ... */
  type: string;
  createdAt: Date;
  title: string;
  text: string;
  data: Record<string, unknown>;
}

/** Sends email (the dashboard's mailer fits); without one, email channels are not delivered. */
export interface NotificationMailer {
  send(message: { to: string; subject: string; text: string }): Promise<{ delivered: boolean; failure: string | null }>;
}

/** Options of {@link deliverNotification}. */
export interface DeliverNotificationOptions {
  timeoutMs: number;
  mailer?: NotificationMailer | null;
  /** The `fetch` of webhook and Slack deliveries (default: the outbound address policy's, see `postJson`). */
  fetch?: typeof fetch | undefined;
}

/**
 * Delivers a notification event to one channel: a JSON webhook signed with
 * `X-Gateway-Signature` (and `X-Gateway-Event-Id`), a Slack-compatible `{text, blocks}`
 * message, or an email to every recipient. Failures are outcomes, never exceptions.
 */
export async function deliverNotification(
  config: NotificationChannelConfig,
  event: NotificationEvent,
  options: DeliverNotificationOptions,
): Promise<DeliveryOutcome> {
  if (config.kind === "email") {
    if (!options.mailer) return { delivered: false, status: null, failure: "No mailer is configured for email channels." };
    const mailer = options.mailer;
    const results = await Promise.all(
      config.recipients.map((to) => mailer.send({ to, subject: `[AI Gateway] ${event.title}`, text: `${event.text}\n\nEvent id: ${event.id}` })),
    );
    const failed = results.find((result) => !result.delivered);
    return failed ? { delivered: false, status: null, failure: failed.failure } : { delivered: true, status: null, failure: null };
  }
  if (config.kind === "slack") {
    const text = `*${event.title}*\n${event.text}`;
    const body = JSON.stringify({ text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] });
    return postJson({ url: config.webhook_url, body, timeoutMs: options.timeoutMs, fetch: options.fetch });
  }
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    title: event.title,
    text: event.text,
    data: event.data,
  });
  const signature = signWebhookPayload({ secret: config.secret, body, timestamp: Math.floor(event.createdAt.getTime() / 1000) });
  return postJson({
    url: config.url,
    body,
    headers: { [webhookSignatureHeader]: signature, "x-gateway-event-id": event.id },
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
  });
}
