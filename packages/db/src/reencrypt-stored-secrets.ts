import { connectionCredentialBinding, notificationChannelConfigBinding, telemetryDestinationConfigBinding } from "./secret-bindings.js";
import type { SecretBinding, SecretBox } from "./secret-box.js";
import { ssoClientCredentialBinding } from "./sso-configurations.js";
import { type SqlClient, sqlNullableString, sqlPlaceholder } from "./sql-client.js";

/** What {@link reencryptStoredSecrets} did. */
export interface ReencryptionResult {
  /** Ciphertexts rewritten (v1, or made with a key that is no longer the active one). */
  reencrypted: number;
}

/** A column of secret-box ciphertexts and how its rows are bound. */
interface EncryptedColumn {
  table: string;
  column: string;
  binding(organizationId: string, id: string): SecretBinding;
}

const encryptedColumns: EncryptedColumn[] = [
  { table: "connections", column: "credential_ciphertext", binding: connectionCredentialBinding },
  { table: "telemetry_destinations", column: "config_ciphertext", binding: telemetryDestinationConfigBinding },
  { table: "notification_channels", column: "config_ciphertext", binding: notificationChannelConfigBinding },
  { table: "sso_configurations", column: "client_credential_ciphertext", binding: ssoClientCredentialBinding },
];

/**
 * The data migration that runs on every start, after the SQL schema migrations: rewrites each
 * stored credential (connections, telemetry destination and notification channel configs) that is `v1` (not bound to its row) or encrypted with a key other than the
 * active one as `v2` under the active key, bound to its organization and row. A row changed
 * meanwhile is left for the next start (compare and swap on the old ciphertext). A ciphertext
 * that does not decrypt stops the start with the row named (`SecretBoxError`), like loading the
 * control-plane snapshot would.
 */
export async function reencryptStoredSecrets(db: SqlClient, secretBox: SecretBox): Promise<ReencryptionResult> {
  let reencrypted = 0;
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  for (const { table, column, binding } of encryptedColumns) {
    const rows = await db.queryStatement({ sql: `SELECT "id", "organization_id", "${column}" FROM "${table}" WHERE "${column}" IS NOT NULL`, args: [] });
    for (const row of rows) {
      const ciphertext = sqlNullableString(row[column]);
      if (ciphertext === null || !secretBox.needsReencryption(ciphertext)) continue;
      const id = String(row.id);
      const bound = binding(String(row.organization_id), id);
      let plaintext: string;
      try {
        plaintext = secretBox.decrypt(ciphertext, bound);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw Object.assign(new Error(`${table} ${id}: ${message}`), { name: "SecretBoxError", cause: error });
      }
      const updated = await db.queryStatement({
        sql: `UPDATE "${table}" SET "${column}" = ${p(1)} WHERE "id" = ${p(2)} AND "${column}" = ${p(3)} RETURNING "id"`,
        args: [secretBox.encrypt(plaintext, bound), id, ciphertext],
      });
      reencrypted += updated.length;
    }
  }
  return { reencrypted };
}
