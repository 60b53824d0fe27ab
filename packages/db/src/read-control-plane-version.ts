import type { SqlClient } from "./sql-client.js";

const versionQuery = { sql: 'SELECT "version" FROM "control_plane_version" WHERE "id" = 1', args: [] };

/**
 * The control-plane version: one indexed single-row read on the raw driver, cheap enough to
 * poll several times a second. Triggers bump it on every INSERT/UPDATE/DELETE of
 * organizations, projects, api_keys (except `last_used_at`), connections, routes, policies,
 * budgets, rate_limits, teams, team_members, mcp_servers and mcp_tokens (except `last_used_at`),
 * including raw SQL from other processes.
 */
export async function readControlPlaneVersion(db: SqlClient): Promise<string> {
  const rows = await db.queryStatement(versionQuery);
  const version = rows[0]?.version;
  if (version === undefined || version === null) {
    throw new Error("control_plane_version row is missing; run the migrations (createDatabase(...).migrate())");
  }
  return String(version);
}
