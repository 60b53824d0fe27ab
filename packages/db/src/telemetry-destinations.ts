import type { DatabaseClient } from "./create-database.js";
import { TELEMETRY_DESTINATION_KINDS } from "./enums.js";
import { requireOneOf, translateWrite } from "./repository-support.js";
import type { SecretBox } from "./secret-box.js";
import { type SqlClient, sqlBoolean, sqlDate, sqlJson, sqlNullableBoolean, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** A telemetry destination; `config` (URL, headers, HMAC secret...) is stored encrypted. */
export interface TelemetryDestinationRecord {
  id: string;
  organizationId: string;
  name: string;
  kind: (typeof TELEMETRY_DESTINATION_KINDS)[number];
  enabled: boolean;
  lastDeliveryAt: Date | null;
  lastDeliveryOk: boolean | null;
  createdAt: Date;
  updatedAt: Date;
}

/** With the decrypted configuration (for the sender and the test action; never render secrets). */
export interface TelemetryDestinationWithConfig extends TelemetryDestinationRecord {
  config: Record<string, unknown>;
}

export interface TelemetryDestinationInput {
  organizationId: string;
  name: string;
  kind: string;
  config: Record<string, unknown>;
  enabled?: boolean;
}

type Row = Awaited<ReturnType<DatabaseClient["prisma"]["telemetryDestination"]["findFirstOrThrow"]>>;
const toRecord = ({ configCiphertext: _ciphertext, ...row }: Row): TelemetryDestinationRecord => ({
  ...row,
  kind: requireOneOf(TELEMETRY_DESTINATION_KINDS, row.kind, "kind"),
});
const withConfig = (row: Row, secretBox: SecretBox): TelemetryDestinationWithConfig => ({
  ...toRecord(row),
  config: JSON.parse(secretBox.decrypt(row.configCiphertext)) as Record<string, unknown>,
});

export async function createTelemetryDestination(db: DatabaseClient, input: TelemetryDestinationInput, options: { secretBox: SecretBox }): Promise<TelemetryDestinationRecord> {
  const kind = requireOneOf(TELEMETRY_DESTINATION_KINDS, input.kind, "kind");
  return toRecord(
    await translateWrite("telemetry destination", () =>
      db.prisma.telemetryDestination.create({
        data: { organizationId: input.organizationId, name: input.name, kind, configCiphertext: options.secretBox.encrypt(JSON.stringify(input.config)), enabled: input.enabled ?? true },
      }),
    ),
  );
}

export async function listTelemetryDestinations(db: DatabaseClient, organizationId: string): Promise<TelemetryDestinationRecord[]> {
  return (await db.prisma.telemetryDestination.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

/** All of an organization's, oldest first, with decrypted configs (for views derived from the config; never render secrets). */
export async function listTelemetryDestinationsWithConfig(db: DatabaseClient, organizationId: string, options: { secretBox: SecretBox }): Promise<TelemetryDestinationWithConfig[]> {
  const rows = await db.prisma.telemetryDestination.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map((row) => withConfig(row, options.secretBox));
}

/** Enabled destinations of all organizations with decrypted configs (the background sender). */
export async function listEnabledTelemetryDestinations(db: SqlClient, options: { secretBox: SecretBox; organizationId?: string }): Promise<TelemetryDestinationWithConfig[]> {
  // Raw driver (no Prisma): the gateway re-reads these in the background.
  const byOrganization = options.organizationId === undefined ? "" : ` AND "organization_id" = ${sqlPlaceholder(db.provider, 1)}`;
  const rows = await db.queryStatement({
    sql: `SELECT "id", "organization_id", "name", "kind", "config_ciphertext", "enabled", "last_delivery_at", "last_delivery_ok", "created_at", "updated_at" FROM "telemetry_destinations" WHERE "enabled" = ${db.provider === "postgresql" ? "true" : "1"}${byOrganization} ORDER BY "created_at", "id"`,
    args: options.organizationId === undefined ? [] : [options.organizationId],
  });
  return rows.map((row) => withConfig(fromSqlRow(row), options.secretBox));
}

/** A raw row in the shape Prisma returns. */
function fromSqlRow(row: Record<string, unknown>): Row {
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    name: String(row.name),
    kind: String(row.kind),
    configCiphertext: String(row.config_ciphertext),
    enabled: sqlBoolean(row.enabled),
    lastDeliveryAt: sqlDate(row.last_delivery_at),
    lastDeliveryOk: sqlNullableBoolean(row.last_delivery_ok),
    createdAt: sqlDate(row.created_at) ?? new Date(0),
    updatedAt: sqlDate(row.updated_at) ?? new Date(0),
  } as Row;
}

export async function getTelemetryDestination(db: DatabaseClient, organizationId: string, id: string): Promise<TelemetryDestinationRecord | null> {
  const row = await db.prisma.telemetryDestination.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

export async function getTelemetryDestinationWithConfig(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  options: { secretBox: SecretBox },
): Promise<TelemetryDestinationWithConfig | null> {
  const row = await db.prisma.telemetryDestination.findFirst({ where: { id, organizationId } });
  return row ? withConfig(row, options.secretBox) : null;
}

export async function updateTelemetryDestination(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: { name?: string; kind?: string; config?: Record<string, unknown>; enabled?: boolean },
  options: { secretBox: SecretBox },
): Promise<TelemetryDestinationRecord> {
  const data: Record<string, unknown> = {};
  if (changes.name !== undefined) data.name = changes.name;
  if (changes.kind !== undefined) data.kind = requireOneOf(TELEMETRY_DESTINATION_KINDS, changes.kind, "kind");
  if (changes.config !== undefined) data.configCiphertext = options.secretBox.encrypt(JSON.stringify(changes.config));
  if (changes.enabled !== undefined) data.enabled = changes.enabled;
  return toRecord(await translateWrite("telemetry destination", () => db.prisma.telemetryDestination.update({ where: { id, organizationId }, data })));
}

/** Records the outcome of a delivery (test or background). */
export async function recordTelemetryDelivery(db: SqlClient, id: string, input: { ok: boolean; at?: Date }): Promise<void> {
  // Raw driver (no Prisma). Not a control-plane table: no version bump.
  const at = sqlTimestamp(db.provider, input.at ?? new Date());
  const ok = db.provider === "postgresql" ? input.ok : input.ok ? 1 : 0;
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  await db.runStatements([{ sql: `UPDATE "telemetry_destinations" SET "last_delivery_ok" = ${p(1)}, "last_delivery_at" = ${p(2)} WHERE "id" = ${p(3)}`, args: [ok, at, id] }]);
}

export async function deleteTelemetryDestination(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("telemetry destination", () => db.prisma.telemetryDestination.delete({ where: { id, organizationId } }));
}
