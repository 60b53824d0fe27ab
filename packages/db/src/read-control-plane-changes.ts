import type { ControlPlaneChange } from "@gateway/contracts";
import { type SqlClient, sqlPlaceholder } from "./sql-client.js";

/** Options of {@link readControlPlaneChanges}. */
export interface ReadControlPlaneChangesOptions {
  /** Changes after this version (the version in service). */
  afterVersion: string;
  /** At most this many (default 1000, what the log keeps). */
  limit?: number;
}

/**
 * The logged control-plane changes after a version, oldest first: one indexed range read of
 * `control_plane_changes`, which the version triggers fill in the same transaction as each
 * change (one row per statement on PostgreSQL, per row on SQLite; the latest 1,000 are kept).
 * The caller checks that the versions follow its own without a gap: a gap (the log was pruned
 * past it, or the version was bumped by hand) means "reload whole".
 */
export async function readControlPlaneChanges(db: SqlClient, options: ReadControlPlaneChangesOptions): Promise<ControlPlaneChange[]> {
  const limit = Math.max(1, Math.floor(options.limit ?? 1000));
  const rows = await db.queryStatement({
    sql: `SELECT "version", "table_name", "row_ids" FROM "control_plane_changes" WHERE "version" > ${sqlPlaceholder(db.provider, 1)} ORDER BY "version" LIMIT ${limit}`,
    args: [Number(options.afterVersion)],
  });
  return rows.map((row) => ({ version: String(row.version), table: String(row.table_name), ids: parseRowIds(row.row_ids) }));
}

/** The logged ids (a JSON array of strings); anything else reads as "not listed" (reload the table). */
export function parseRowIds(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  if (!Array.isArray(parsed) || !parsed.every((id) => typeof id === "string")) return null;
  return parsed as string[];
}
