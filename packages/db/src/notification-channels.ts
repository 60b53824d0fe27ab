import { type NotificationChannelConfig, notificationChannelConfigSchema } from "@gateway/contracts";
import type { DatabaseClient } from "./create-database.js";
import { NOTIFICATION_CHANNEL_KINDS } from "./enums.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { requireOneOf, translateWrite } from "./repository-support.js";
import type { SecretBox } from "./secret-box.js";
import { newBoundRowId, notificationChannelConfigBinding } from "./secret-bindings.js";
import { selectEnabledDeliveryTargets, updateDeliveryOutcome } from "./delivery-target-rows.js";
import type { SqlClient } from "./sql-client.js";

/** A notification channel; `config` (URL, headers, HMAC secret...) is stored encrypted. */
export interface NotificationChannelRecord {
  id: string;
  organizationId: string;
  name: string;
  kind: (typeof NOTIFICATION_CHANNEL_KINDS)[number];
  /** Event kinds this channel receives; [] = all. */
  events: string[];
  enabled: boolean;
  lastDeliveryAt: Date | null;
  lastDeliveryOk: boolean | null;
  createdAt: Date;
  updatedAt: Date;
}

/** With the decrypted configuration, parsed (for the sender and the test action; never render secrets). */
export interface NotificationChannelWithConfig extends NotificationChannelRecord {
  config: NotificationChannelConfig;
}

export interface NotificationChannelInput {
  organizationId: string;
  name: string;
  kind: string;
  config: NotificationChannelConfig;
  events?: string[];
  enabled?: boolean;
}

type Row = Awaited<ReturnType<DatabaseClient["prisma"]["notificationChannel"]["findFirstOrThrow"]>>;
const toRecord = ({ configCiphertext: _ciphertext, ...row }: Row): NotificationChannelRecord => ({
  ...row,
  kind: requireOneOf(NOTIFICATION_CHANNEL_KINDS, row.kind, "kind"),
  events: parseJsonColumn(stringArraySchema, row.events, `notification_channels ${row.id} events`),
});
const decryptConfig = (row: Row, secretBox: SecretBox): unknown =>
  JSON.parse(secretBox.decrypt(row.configCiphertext, notificationChannelConfigBinding(row.organizationId, row.id)));
const withConfig = (row: Row, secretBox: SecretBox): NotificationChannelWithConfig => ({
  ...toRecord(row),
  config: parseJsonColumn(notificationChannelConfigSchema, decryptConfig(row, secretBox), `notification_channels ${row.id} config`),
});
/** With its configuration, or null when the stored configuration does not match its schema. */
const withValidConfig = (row: Row, secretBox: SecretBox): NotificationChannelWithConfig | null => {
  const parsed = notificationChannelConfigSchema.safeParse(decryptConfig(row, secretBox));
  return parsed.success ? { ...toRecord(row), config: parsed.data } : null;
};

export async function createNotificationChannel(db: DatabaseClient, input: NotificationChannelInput, options: { secretBox: SecretBox }): Promise<NotificationChannelRecord> {
  const kind = requireOneOf(NOTIFICATION_CHANNEL_KINDS, input.kind, "kind");
  const id = newBoundRowId();
  return toRecord(
    await translateWrite("notification channel", () =>
      db.prisma.notificationChannel.create({
        data: { id, organizationId: input.organizationId, name: input.name, kind, configCiphertext: options.secretBox.encrypt(JSON.stringify(input.config), notificationChannelConfigBinding(input.organizationId, id)), events: input.events ?? [], enabled: input.enabled ?? true },
      }),
    ),
  );
}

export async function listNotificationChannels(db: DatabaseClient, organizationId: string): Promise<NotificationChannelRecord[]> {
  return (await db.prisma.notificationChannel.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

/** All of an organization's, oldest first, with decrypted configs (for views derived from the config; never render secrets). */
export async function listNotificationChannelsWithConfig(db: DatabaseClient, organizationId: string, options: { secretBox: SecretBox }): Promise<NotificationChannelWithConfig[]> {
  const rows = await db.prisma.notificationChannel.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((row) => withConfig(row, options.secretBox));
}

/** Enabled destinations of all organizations with decrypted configs (the background sender). One whose stored configuration does not match its schema is left out. */
export async function listEnabledNotificationChannels(db: SqlClient, options: { secretBox: SecretBox; organizationId?: string }): Promise<NotificationChannelWithConfig[]> {
  const rows = await selectEnabledDeliveryTargets(db, "notification_channels", options.organizationId);
  return rows.map((row) => withValidConfig(row as Row, options.secretBox)).filter((row) => row !== null);
}

export async function getNotificationChannel(db: DatabaseClient, organizationId: string, id: string): Promise<NotificationChannelRecord | null> {
  const row = await db.prisma.notificationChannel.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

export async function getNotificationChannelWithConfig(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  options: { secretBox: SecretBox },
): Promise<NotificationChannelWithConfig | null> {
  const row = await db.prisma.notificationChannel.findFirst({ where: { id, organizationId } });
  return row ? withConfig(row, options.secretBox) : null;
}

export async function updateNotificationChannel(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: { name?: string; kind?: string; config?: NotificationChannelConfig; events?: string[]; enabled?: boolean },
  options: { secretBox: SecretBox },
): Promise<NotificationChannelRecord> {
  const data: Record<string, unknown> = {};
  if (changes.name !== undefined) data.name = changes.name;
  if (changes.kind !== undefined) data.kind = requireOneOf(NOTIFICATION_CHANNEL_KINDS, changes.kind, "kind");
  if (changes.config !== undefined) data.configCiphertext = options.secretBox.encrypt(JSON.stringify(changes.config), notificationChannelConfigBinding(organizationId, id));
  if (changes.events !== undefined) data.events = changes.events;
  if (changes.enabled !== undefined) data.enabled = changes.enabled;
  return toRecord(await translateWrite("notification channel", () => db.prisma.notificationChannel.update({ where: { id, organizationId }, data })));
}

/** Records the outcome of a delivery (test or background). */
export async function recordNotificationDelivery(db: SqlClient, id: string, input: { ok: boolean; at?: Date }): Promise<void> {
  await updateDeliveryOutcome(db, "notification_channels", id, input);
}

export async function deleteNotificationChannel(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("notification channel", () => db.prisma.notificationChannel.delete({ where: { id, organizationId } }));
}
