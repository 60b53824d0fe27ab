import type { ApiKeyRecord } from "./api-keys.js";
import { type SqlClient, sqlDate, sqlJson, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** What a revocation did: the key now, whether this call revoked it, and the key before it did. */
export interface ApiKeyRevocation {
  apiKey: ApiKeyRecord;
  revoked: boolean;
  /** The row as it was before this call revoked it (null when it did not). */
  before: ApiKeyRecord | null;
}

const keyColumns =
  '"id", "organization_id", "project_id", "team_id", "name", "prefix", "last_four", "secret_hash", "created_by_user_id", "created_at", "updated_at", "last_used_at", "expires_at", "revoked_at", "revoked_by_user_id", "default_metadata"';

/** An `api_keys` row read on the raw driver, as Prisma would answer it. */
export function apiKeyRecordOf(row: Record<string, unknown>): ApiKeyRecord {
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    projectId: String(row.project_id),
    teamId: row.team_id === null || row.team_id === undefined ? null : String(row.team_id),
    name: String(row.name),
    prefix: String(row.prefix),
    lastFour: String(row.last_four),
    secretHash: String(row.secret_hash),
    createdByUserId: row.created_by_user_id === null || row.created_by_user_id === undefined ? null : String(row.created_by_user_id),
    createdAt: sqlDate(row.created_at) ?? new Date(0),
    updatedAt: sqlDate(row.updated_at) ?? new Date(0),
    lastUsedAt: sqlDate(row.last_used_at),
    expiresAt: sqlDate(row.expires_at),
    revokedAt: sqlDate(row.revoked_at),
    revokedByUserId: row.revoked_by_user_id === null || row.revoked_by_user_id === undefined ? null : String(row.revoked_by_user_id),
    defaultMetadata: row.default_metadata === null || row.default_metadata === undefined ? {} : sqlJson(row.default_metadata),
  };
}

// PostgreSQL: the key, its MCP tokens and the key's previous `updated_at` in ONE statement (one
// round trip; the version triggers log and announce both tables' changes at its end).
const postgresqlRevocation =
  'WITH "previous" AS (SELECT "id", "updated_at" FROM "api_keys" WHERE "id" = $1 AND "organization_id" = $2 AND "revoked_at" IS NULL FOR UPDATE), ' +
  '"revoked" AS (UPDATE "api_keys" k SET "revoked_at" = $3, "revoked_by_user_id" = $4, "updated_at" = $3 FROM "previous" ' +
  `WHERE k."id" = "previous"."id" AND k."revoked_at" IS NULL RETURNING ${keyColumns
    .split(", ")
    .map((column) => `k.${column}`)
    .join(", ")}, "previous"."updated_at" AS "previous_updated_at"), ` +
  '"tokens" AS (UPDATE "mcp_tokens" SET "revoked_at" = $3, "revoked_by_user_id" = $4 WHERE "api_key_id" IN (SELECT "id" FROM "revoked") AND "organization_id" = $2 AND "revoked_at" IS NULL) ' +
  'SELECT * FROM "revoked"';

const selectKey = (provider: SqlClient["provider"]) =>
  `SELECT ${keyColumns} FROM "api_keys" WHERE "id" = ${sqlPlaceholder(provider, 1)} AND "organization_id" = ${sqlPlaceholder(provider, 2)}`;

/**
 * Revokes a key and the MCP tokens issued for it on the raw driver: on PostgreSQL one statement
 * (no read before it; a key already revoked or unknown costs one read more), on SQLite a read and
 * one transaction. Resolves null when the key is not in the organization.
 */
export async function revokeApiKeyStatement(
  db: SqlClient,
  input: { organizationId: string; id: string; revokedByUserId: string | null; now: Date },
): Promise<ApiKeyRevocation | null> {
  const at = sqlTimestamp(db.provider, input.now);
  if (db.provider === "postgresql") {
    const [row] = await db.queryStatement({ sql: postgresqlRevocation, args: [input.id, input.organizationId, at, input.revokedByUserId] });
    if (row !== undefined) {
      const apiKey = apiKeyRecordOf(row);
      const before = { ...apiKey, revokedAt: null, revokedByUserId: null, updatedAt: sqlDate(row.previous_updated_at) ?? apiKey.updatedAt };
      return { apiKey, revoked: true, before };
    }
    const [existing] = await db.queryStatement({ sql: selectKey(db.provider), args: [input.id, input.organizationId] });
    return existing === undefined ? null : { apiKey: apiKeyRecordOf(existing), revoked: false, before: null };
  }
  const [existing] = await db.queryStatement({ sql: selectKey(db.provider), args: [input.id, input.organizationId] });
  if (existing === undefined) return null;
  const before = apiKeyRecordOf(existing);
  if (before.revokedAt !== null) return { apiKey: before, revoked: false, before: null };
  // Tokens first, while the key is still active: both or neither (one transaction).
  await db.runStatements([
    {
      sql: 'UPDATE "mcp_tokens" SET "revoked_at" = ?, "revoked_by_user_id" = ? WHERE "api_key_id" = ? AND "organization_id" = ? AND "revoked_at" IS NULL',
      args: [at, input.revokedByUserId, input.id, input.organizationId],
    },
    {
      sql: 'UPDATE "api_keys" SET "revoked_at" = ?, "revoked_by_user_id" = ?, "updated_at" = ? WHERE "id" = ? AND "organization_id" = ? AND "revoked_at" IS NULL',
      args: [at, input.revokedByUserId, at, input.id, input.organizationId],
    },
  ]);
  const [after] = await db.queryStatement({ sql: selectKey(db.provider), args: [input.id, input.organizationId] });
  const apiKey = apiKeyRecordOf(after ?? existing);
  // Another writer may have revoked it between the read and the transaction: then this call did not.
  const revoked = apiKey.revokedAt !== null && apiKey.revokedAt.getTime() === input.now.getTime() && apiKey.revokedByUserId === input.revokedByUserId;
  return { apiKey, revoked, before: revoked ? before : null };
}
