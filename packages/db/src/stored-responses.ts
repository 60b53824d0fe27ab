import type { StoredResponse } from "@gateway/contracts";
import { type SqlClient, sqlDate, sqlJson, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

const columns = ["id", "organization_id", "project_id", "api_key_id", "created_at", "expires_at", "response", "input_items", "conversation"] as const;

/**
 * Stores a Responses answer (one upsert on the raw driver, no Prisma): visible to every reader as
 * soon as it resolves. A response id already stored in another project is left untouched.
 */
export async function writeStoredResponse(db: SqlClient, record: StoredResponse): Promise<void> {
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  const placeholders = columns.map((_column, index) => p(index + 1)).join(", ");
  const updates = ["api_key_id", "created_at", "expires_at", "response", "input_items", "conversation"].map((column) => `"${column}" = excluded."${column}"`).join(", ");
  await db.runStatements([
    {
      sql: `INSERT INTO "stored_responses" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${placeholders}) ON CONFLICT ("id") DO UPDATE SET ${updates} WHERE "stored_responses"."project_id" = excluded."project_id"`,
      args: [
        record.id,
        record.organizationId,
        record.projectId,
        record.apiKeyId,
        sqlTimestamp(db.provider, record.createdAt),
        sqlTimestamp(db.provider, record.expiresAt),
        JSON.stringify(record.response),
        JSON.stringify(record.inputItems),
        JSON.stringify(record.conversation),
      ],
    },
  ]);
}

/**
 * Reads one stored response of a project (one primary-key lookup on the raw driver): null when
 * there is none, it belongs to another project, or it has expired.
 */
export async function readStoredResponse(db: SqlClient, input: { projectId: string; id: string; now?: Date }): Promise<StoredResponse | null> {
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  const rows = await db.queryStatement({
    sql: `SELECT ${columns.map((column) => `"${column}"`).join(", ")} FROM "stored_responses" WHERE "id" = ${p(1)} AND "project_id" = ${p(2)} AND "expires_at" > ${p(3)}`,
    args: [input.id, input.projectId, sqlTimestamp(db.provider, input.now ?? new Date())],
  });
  const row = rows[0];
  if (row === undefined) return null;
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    projectId: String(row.project_id),
    apiKeyId: String(row.api_key_id),
    createdAt: sqlDate(row.created_at) as Date,
    expiresAt: sqlDate(row.expires_at) as Date,
    response: sqlJson(row.response) as Record<string, unknown>,
    inputItems: sqlJson(row.input_items) as Record<string, unknown>[],
    conversation: sqlJson(row.conversation) as Record<string, unknown>[],
  };
}

/** Deletes one stored response of a project; false when there was none (or it belongs to another project). */
export async function deleteStoredResponse(db: SqlClient, input: { projectId: string; id: string }): Promise<boolean> {
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  const rows = await db.queryStatement({
    sql: `DELETE FROM "stored_responses" WHERE "id" = ${p(1)} AND "project_id" = ${p(2)} RETURNING "id"`,
    args: [input.id, input.projectId],
  });
  return rows.length > 0;
}

/**
 * Deletes expired stored responses, and every stored response of the given projects (projects
 * that stopped capturing content: what they forbid is not kept).
 */
export async function deleteStoredResponsesSweep(db: SqlClient, input: { now?: Date; projectIds?: readonly string[] } = {}): Promise<void> {
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  const statements = [{ sql: `DELETE FROM "stored_responses" WHERE "expires_at" <= ${p(1)}`, args: [sqlTimestamp(db.provider, input.now ?? new Date())] as unknown[] }];
  const projectIds = input.projectIds ?? [];
  for (let start = 0; start < projectIds.length; start += 500) {
    const chunk = projectIds.slice(start, start + 500);
    statements.push({ sql: `DELETE FROM "stored_responses" WHERE "project_id" IN (${chunk.map((_id, index) => p(index + 1)).join(", ")})`, args: chunk });
  }
  await db.runStatements(statements);
}
