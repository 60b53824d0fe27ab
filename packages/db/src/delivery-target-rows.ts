import { type SqlClient, sqlBoolean, sqlDate, sqlJson, sqlNullableBoolean, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** The two delivery-target tables (telemetry destinations, notification channels); same columns but `events`. */
export type DeliveryTargetTable = "telemetry_destinations" | "notification_channels";

/** A delivery-target row in the shape Prisma returns (`events` only for notification channels). */
export interface DeliveryTargetRow {
  id: string;
  organizationId: string;
  name: string;
  kind: string;
  configCiphertext: string;
  events?: unknown;
  enabled: boolean;
  lastDeliveryAt: Date | null;
  lastDeliveryOk: boolean | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Enabled rows of a delivery-target table, oldest first, on the raw driver (no Prisma: the
 * gateway re-reads them in the background).
 */
export async function selectEnabledDeliveryTargets(db: SqlClient, table: DeliveryTargetTable, organizationId?: string): Promise<DeliveryTargetRow[]> {
  const events = table === "notification_channels" ? ', "events"' : "";
  const byOrganization = organizationId === undefined ? "" : ` AND "organization_id" = ${sqlPlaceholder(db.provider, 1)}`;
  const rows = await db.queryStatement({
    sql: `SELECT "id", "organization_id", "name", "kind", "config_ciphertext"${events}, "enabled", "last_delivery_at", "last_delivery_ok", "created_at", "updated_at" FROM "${table}" WHERE "enabled" = ${db.provider === "postgresql" ? "true" : "1"}${byOrganization} ORDER BY "created_at", "id"`,
    args: organizationId === undefined ? [] : [organizationId],
  });
  return rows.map((row) => ({
    id: String(row.id),
    organizationId: String(row.organization_id),
    name: String(row.name),
    kind: String(row.kind),
    configCiphertext: String(row.config_ciphertext),
    ...(table === "notification_channels" ? { events: sqlJson(row.events) } : {}),
    enabled: sqlBoolean(row.enabled),
    lastDeliveryAt: sqlDate(row.last_delivery_at),
    lastDeliveryOk: sqlNullableBoolean(row.last_delivery_ok),
    createdAt: sqlDate(row.created_at) ?? new Date(0),
    updatedAt: sqlDate(row.updated_at) ?? new Date(0),
  }));
}

/** Records a delivery outcome on the raw driver. Not a control-plane table: no version bump. */
export async function updateDeliveryOutcome(db: SqlClient, table: DeliveryTargetTable, id: string, input: { ok: boolean; at?: Date }): Promise<void> {
  const at = sqlTimestamp(db.provider, input.at ?? new Date());
  const ok = db.provider === "postgresql" ? input.ok : input.ok ? 1 : 0;
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  await db.runStatements([{ sql: `UPDATE "${table}" SET "last_delivery_ok" = ${p(1)}, "last_delivery_at" = ${p(2)} WHERE "id" = ${p(3)}`, args: [ok, at, id] }]);
}
