import { z } from "zod";

const headersSchema = z.record(z.string(), z.string());

/** The kinds of telemetry destination. */
export const telemetryDestinationKinds = ["otlp_http", "webhook"] as const;

/**
 * A telemetry destination's decrypted configuration, as stored: OTLP/HTTP (the traces URL and
 * headers sent with every export) or a signed webhook. Parsed whenever it is read back; the
 * dashboard's input schema is stricter (URL rules, header names, secret length).
 */
export const telemetryDestinationConfigSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("otlp_http"), endpoint: z.string(), headers: headersSchema.optional() }),
  z.object({ kind: z.literal("webhook"), url: z.string(), secret: z.string(), headers: headersSchema.optional() }),
]);

/** A telemetry destination's decrypted configuration. */
export type TelemetryDestinationConfig = z.infer<typeof telemetryDestinationConfigSchema>;

/** The kinds of notification channel. */
export const notificationChannelKinds = ["webhook", "slack", "email"] as const;

/**
 * A notification channel's decrypted configuration, as stored: a signed webhook, a Slack incoming
 * webhook, or email recipients. Parsed whenever it is read back.
 */
export const notificationChannelConfigSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("webhook"), url: z.string(), secret: z.string() }),
  z.object({ kind: z.literal("slack"), webhook_url: z.string() }),
  z.object({ kind: z.literal("email"), recipients: z.array(z.string()) }),
]);

/** A notification channel's decrypted configuration. */
export type NotificationChannelConfig = z.infer<typeof notificationChannelConfigSchema>;
