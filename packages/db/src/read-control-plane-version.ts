import type { DatabaseClient } from "./create-database.js";

/**
 * The control-plane version: one indexed single-row read, cheap enough to poll every second.
 * Triggers bump it on every INSERT/UPDATE/DELETE of organizations, projects, api_keys (except
 * `last_used_at`), connections, routes, policies, budgets, rate_limits, teams and team_members,
 * including raw SQL from other processes.
 */
export async function readControlPlaneVersion(db: DatabaseClient): Promise<string> {
  const row = await db.prisma.controlPlaneVersion.findUnique({ where: { id: 1 }, select: { version: true } });
  if (!row) throw new Error("control_plane_version row is missing; run the migrations (createDatabase(...).migrate())");
  return row.version.toString();
}
