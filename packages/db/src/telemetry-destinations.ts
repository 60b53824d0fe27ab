import { type TelemetryDestinationConfig, telemetryDestinationConfigSchema } from "@gateway/contracts";
import type { DatabaseClient } from "./create-database.js";
import { TELEMETRY_DESTINATION_KINDS } from "./enums.js";
import { parseJsonColumn } from "./json-values.js";
import { requireOneOf, translateWrite } from "./repository-support.js";
import type { SecretBox } from "./secret-box.js";
import { newBoundRowId, telemetryDestinationConfigBinding } from "./secret-bindings.js";
import { selectEnabledDeliveryTargets, updateDeliveryOutcome } from "./delivery-target-rows.js";
import type { SqlClient } from "./sql-client.js";

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

/** With the decrypted configuration, parsed (for the sender and the test action; never render secrets). */
export interface TelemetryDestinationWithConfig extends TelemetryDestinationRecord {
  config: TelemetryDestinationConfig;
}

export interface TelemetryDestinationInput {
  organizationId: string;
  name: string;
  kind: string;
  config: TelemetryDestinationConfig;
  enabled?: boolean;
}

type Row = Awaited<ReturnType<DatabaseClient["prisma"]["telemetryDestination"]["findFirstOrThrow"]>>;
const toRecord = ({ configCiphertext: _ciphertext, ...row }: Row): TelemetryDestinationRecord => ({
  ...row,
  kind: requireOneOf(TELEMETRY_DESTINATION_KINDS, row.kind, "kind"),
});
const decryptConfig = (row: Row, secretBox: SecretBox): unknown =>
  JSON.parse(secretBox.decrypt(row.configCiphertext, telemetryDestinationConfigBinding(row.organizationId, row.id)));
const withConfig = (row: Row, secretBox: SecretBox): TelemetryDestinationWithConfig => ({
  ...toRecord(row),
  config: parseJsonColumn(telemetryDestinationConfigSchema, decryptConfig(row, secretBox), `telemetry_destinations ${row.id} config`),
});
/** With its configuration, or null when the stored configuration does not match its schema. */
const withValidConfig = (row: Row, secretBox: SecretBox): TelemetryDestinationWithConfig | null => {
  const parsed = telemetryDestinationConfigSchema.safeParse(decryptConfig(row, secretBox));
  return parsed.success ? { ...toRecord(row), config: parsed.data } : null;
};

export async function createTelemetryDestination(db: DatabaseClient, input: TelemetryDestinationInput, options: { secretBox: SecretBox }): Promise<TelemetryDestinationRecord> {
  const kind = requireOneOf(TELEMETRY_DESTINATION_KINDS, input.kind, "kind");
  const id = newBoundRowId();
  return toRecord(
    await translateWrite("telemetry destination", () =>
      db.prisma.telemetryDestination.create({
        data: { id, organizationId: input.organizationId, name: input.name, kind, configCiphertext: options.secretBox.encrypt(JSON.stringify(input.config), telemetryDestinationConfigBinding(input.organizationId, id)), enabled: input.enabled ?? true },
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

/** Enabled destinations of all organizations with decrypted configs (the background sender). One whose stored configuration does not match its schema is left out. */
export async function listEnabledTelemetryDestinations(db: SqlClient, options: { secretBox: SecretBox; organizationId?: string }): Promise<TelemetryDestinationWithConfig[]> {
  const rows = await selectEnabledDeliveryTargets(db, "telemetry_destinations", options.organizationId);
  return rows.map((row) => withValidConfig(row as Row, options.secretBox)).filter((row) => row !== null);
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
  changes: { name?: string; kind?: string; config?: TelemetryDestinationConfig; enabled?: boolean },
  options: { secretBox: SecretBox },
): Promise<TelemetryDestinationRecord> {
  const data: Record<string, unknown> = {};
  if (changes.name !== undefined) data.name = changes.name;
  if (changes.kind !== undefined) data.kind = requireOneOf(TELEMETRY_DESTINATION_KINDS, changes.kind, "kind");
  if (changes.config !== undefined) data.configCiphertext = options.secretBox.encrypt(JSON.stringify(changes.config), telemetryDestinationConfigBinding(organizationId, id));
  if (changes.enabled !== undefined) data.enabled = changes.enabled;
  return toRecord(await translateWrite("telemetry destination", () => db.prisma.telemetryDestination.update({ where: { id, organizationId }, data })));
}

/** Records the outcome of a delivery (test or background). */
export async function recordTelemetryDelivery(db: SqlClient, id: string, input: { ok: boolean; at?: Date }): Promise<void> {
  await updateDeliveryOutcome(db, "telemetry_destinations", id, input);
}

export async function deleteTelemetryDestination(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("telemetry destination", () => db.prisma.telemetryDestination.delete({ where: { id, organizationId } }));
}
