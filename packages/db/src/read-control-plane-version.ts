import type { DatabaseClient } from "./create-database.js";

const versionQuery = { sql: 'SELECT "version" FROM "control_plane_version" WHERE "id" = 1', args: [] };

/**
 * The control-plane version: one indexed single-row read, cheap enough to poll several times a
 * second. Read on the raw driver when the client has one (no Prisma query compilation per
 * poll), else through Prisma. Triggers bump it on every INSERT/UPDATE/DELETE of organizations,
 * projects, api_keys (except `last_used_at`), connections, routes, policies, budgets,
 * rate_limits, teams and team_members, including raw SQL from other processes.
 */
export async function readControlPlaneVersion(db: DatabaseClient): Promise<string> {
  if (db.queryStatement) {
    const rows = await db.queryStatement(versionQuery);
    const version = rows[0]?.version;
    if (version === undefined || version === null) throw missingRow();
    return String(version);
  }
  const row = await db.prisma.controlPlaneVersion.findUnique({ where: { id: 1 }, select: { version: true } });
  if (!row) throw missingRow();
  return row.version.toString();
}

function missingRow(): Error {
  return new Error("control_plane_version row is missing; run the migrations (createDatabase(...).migrate())");
}
