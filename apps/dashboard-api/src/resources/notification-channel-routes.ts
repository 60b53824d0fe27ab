import { notificationChannelKinds } from "@gateway/contracts";
import { randomBytes } from "node:crypto";
import {
  createNotificationChannel,
  deleteNotificationChannel,
  getNotificationChannelWithConfig,
  listNotificationChannelsWithConfig,
  recordNotificationDelivery,
  updateNotificationChannel,
  type NotificationChannelWithConfig,
} from "@gateway/db";
import { z } from "zod";
import { deliveryUrl, displayUrl } from "../delivery/destination-url.js";
import { deliverNotification } from "@gateway/pipeline";
import { deletedObjectSchema, displayName, idParams, iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

/** Event kinds a channel can subscribe to (empty list = all). */
export const notificationEventKinds = ["budget.threshold", "budget.exceeded", "rate_limit.exceeded", "api_key.revoked", "provider.error", "mcp_server.authorization_failed"] as const;

const webhookConfig = z.object({
  kind: z.literal("webhook"),
  url: deliveryUrl,
  secret: z.string().min(16).max(500).describe("HMAC-SHA256 key for `X-Gateway-Signature`; stored encrypted"),
});
const slackConfig = z.object({
  kind: z.literal("slack"),
  webhook_url: deliveryUrl.describe("A Slack-compatible incoming webhook URL; stored encrypted, never shown again"),
});
const emailConfig = z.object({
  kind: z.literal("email"),
  recipients: z.array(z.email().max(320)).min(1).max(50),
});
const channelConfig = z.discriminatedUnion("kind", [webhookConfig, slackConfig, emailConfig]);

/** A notification channel as the API shows it (no secrets; Slack URLs are not shown). */
export const notificationChannelSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(notificationChannelKinds),
  target: z.string().describe("Webhook URL without query, `slack incoming webhook`, or the email recipients"),
  events: z.array(z.string()),
  enabled: z.boolean(),
  last_delivery_at: timestamp.nullable(),
  last_delivery_ok: z.boolean().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("notification.channel"),
});

/** The test result of the spec: `{reference, delivered, object}`. */
export const notificationTestSchema = z.object({
  reference: z.string().describe("The test event id"),
  delivered: z.boolean(),
  object: z.literal("notification.test"),
});

/** A channel with its configuration (decrypted by `@gateway/db`). */
type ChannelRow = NotificationChannelWithConfig;

const events = z.array(z.enum(notificationEventKinds)).max(20).describe("Event kinds to send; empty = all");
const createBody = z.object({ name: displayName, enabled: z.boolean().default(true), events: events.default([]), config: channelConfig });
const updateBody = z
  .object({ name: displayName, enabled: z.boolean(), events, config: channelConfig.describe("Replaces the whole configuration") })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("channel_id");

export type { NotificationEvent } from "@gateway/pipeline";
export { deliverNotification };

/** Notification channel routes under `/api/notification-channels`. */
export function createNotificationChannelRoutes(services: DashboardServices): DashboardRoute[] {
  const secretBox = { secretBox: services.secrets };
  const present = (row: ChannelRow): z.infer<typeof notificationChannelSchema> => {
    const { config } = row;
    return {
      id: row.id,
      name: row.name,
      kind: config.kind,
      target: config.kind === "webhook" ? displayUrl(config.url) : config.kind === "slack" ? "slack incoming webhook" : config.recipients.join(", "),
      events: row.events,
      enabled: row.enabled,
      last_delivery_at: iso(row.lastDeliveryAt),
      last_delivery_ok: row.lastDeliveryOk,
      created_at: iso(row.createdAt),
      updated_at: iso(row.updatedAt),
      object: "notification.channel",
    };
  };
  const load = (organizationId: string, id: string) =>
    getNotificationChannelWithConfig(services.database, organizationId, id, secretBox).then((row) => found(row, "Notification channel"));
  const conflict = "A notification channel with this name already exists.";

  return [
    defineRoute({
      method: "post",
      path: "/api/notification-channels",
      operationId: "create_notification_channel",
      summary: "Create a notification channel",
      tag: "Notifications",
      access: "notifications:write",
      body: createBody,
      exampleBody: { name: "ops-slack", events: ["budget.threshold"], config: { kind: "slack", webhook_url: "https://hooks.slack.com/services/T000/B000/XXXX" } },
      responses: [{ status: 201, description: "The channel", schema: notificationChannelSchema }],
      async handler(context) {
        const { principal, body } = context;
        const created = await withConflict(
          () =>
            createNotificationChannel(
              services.database,
              { organizationId: principal.organization.id, name: body.name, kind: body.config.kind, config: body.config, events: body.events, enabled: body.enabled },
              secretBox,
            ),
          conflict,
          "name",
        );
        const row = { ...created, config: body.config };
        const after = present(row);
        await auditChange(services, context, { action: "notification_channel.created", targetType: "notification_channel", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/notification-channels",
      operationId: "list_notification_channels",
      summary: "List notification channels",
      tag: "Notifications",
      access: "notifications:read",
      responses: [{ status: 200, description: "Channels", schema: listObjectSchema(notificationChannelSchema) }],
      async handler({ principal }) {
        const rows = await listNotificationChannelsWithConfig(services.database, principal.organization.id, secretBox);
        return { status: 200, body: fullList(rows.map(present)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/notification-channels/{channel_id}",
      operationId: "get_notification_channel",
      summary: "Get a notification channel",
      tag: "Notifications",
      access: "notifications:read",
      params,
      responses: [{ status: 200, description: "The channel", schema: notificationChannelSchema }],
      async handler({ principal, params: { channel_id } }) {
        return { status: 200, body: present(await load(principal.organization.id, channel_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/notification-channels/{channel_id}",
      operationId: "update_notification_channel",
      summary: "Update a notification channel",
      tag: "Notifications",
      access: "notifications:write",
      params,
      body: updateBody,
      exampleBody: { events: [] },
      responses: [{ status: 200, description: "The channel", schema: notificationChannelSchema }],
      async handler(context) {
        const { principal, params: { channel_id }, body } = context;
        const existing = await load(principal.organization.id, channel_id);
        const updated = await withConflict(
          () =>
            updateNotificationChannel(
              services.database,
              existing.organizationId,
              existing.id,
              {
                ...(body.name !== undefined ? { name: body.name } : {}),
                ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
                ...(body.events !== undefined ? { events: body.events } : {}),
                ...(body.config !== undefined ? { kind: body.config.kind, config: body.config } : {}),
              },
              secretBox,
            ),
          conflict,
          "name",
        );
        const row = { ...updated, config: body.config ?? existing.config };
        const after = present(row);
        await auditChange(services, context, { action: "notification_channel.updated", targetType: "notification_channel", targetId: row.id, before: present(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/notification-channels/{channel_id}",
      operationId: "delete_notification_channel",
      summary: "Delete a notification channel",
      tag: "Notifications",
      access: "notifications:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("notification.channel") }],
      async handler(context) {
        const { principal, params: { channel_id } } = context;
        const existing = await load(principal.organization.id, channel_id);
        await deleteNotificationChannel(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "notification_channel.deleted", targetType: "notification_channel", targetId: existing.id, before: present(existing) });
        return { status: 200, body: { id: existing.id, object: "notification.channel", deleted: true } };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/notification-channels/{channel_id}/test",
      operationId: "test_notification_channel",
      summary: "Send a test notification",
      description:
        "Really sends one `notification.test` event: a signed JSON webhook, a Slack-compatible `{text, blocks}` message, " +
        "or an email to every recipient. `delivered` is false, not an HTTP error, when the far end refuses or does not answer in time.",
      tag: "Notifications",
      access: "notifications:write",
      params,
      responses: [{ status: 200, description: "The test result", schema: notificationTestSchema }],
      async handler(context) {
        const { principal, params: { channel_id } } = context;
        const existing = await load(principal.organization.id, channel_id);
        const reference = `evt_${randomBytes(12).toString("hex")}`;
        const outcome = await deliverNotification(
          existing.config,
          {
            id: reference,
            type: "notification.test",
            createdAt: services.now(),
            title: "Test notification",
            text: `This is a test of the notification channel '${existing.name}' of ${principal.organization.name}.`,
            data: { channel_id: existing.id, organization_id: principal.organization.id },
          },
          { timeoutMs: services.settings.deliveryTimeoutMs, mailer: services.mailer },
        );
        await recordNotificationDelivery(services.database, existing.id, { ok: outcome.delivered, at: services.now() });
        await auditChange(services, context, {
          action: "notification_channel.tested",
          targetType: "notification_channel",
          targetId: existing.id,
          after: { reference, delivered: outcome.delivered, status: outcome.status, failure: outcome.failure },
        });
        return { status: 200, body: { reference, delivered: outcome.delivered, object: "notification.test" } };
      },
    }),
  ];
}
