import { type SqlClient, sqlDate, sqlJson, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/**
 * What a dashboard request needs of its login session: the session, its account, its
 * organization, the membership role there, the roles of the user's teams there and the projects
 * the user is assigned to there. Read in ONE statement on the raw driver (see
 * {@link findSessionPrincipal}).
 */
export interface SessionPrincipalRow {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  organization: { id: string; name: string; slug: string };
  /** The membership's own role (validate it: roles are text columns). */
  membershipRole: string;
  /** Each team role of the user in this organization (a member's own role, else the team's default). */
  teamRoles: string[];
  /** Projects of this organization the user is assigned to, in assignment order. */
  projectIds: string[];
  expiresAt: Date;
  lastSeenAt: Date;
}

/** One organization the user belongs to, with the roles that make up the effective role there. */
export interface UserMembershipRow {
  organization: { id: string; name: string; slug: string; authenticationRequired: "password" | "sso" };
  membershipRole: string;
  teamRoles: string[];
}

// Team roles and assigned projects as one JSON array column each (one round trip per request:
// every dashboard request resolves its session, so the Prisma query compiler and extra round
// trips cost more than the rows). SQLite keeps the subquery's order in json_group_array.
const jsonArray = {
  postgresql: (expression: string, from: string, orderBy: string) => `(SELECT COALESCE(json_agg(${expression} ORDER BY ${orderBy}), '[]'::json) ${from})`,
  sqlite: (expression: string, from: string, orderBy: string) => `(SELECT json_group_array("value") FROM (SELECT ${expression} AS "value" ${from} ORDER BY ${orderBy}))`,
} as const;

const teamRolesOf = (provider: SqlClient["provider"], userColumn: string, organizationColumn: string) =>
  jsonArray[provider](
    'COALESCE(tm."role", t."default_role")',
    `FROM "team_members" tm JOIN "teams" t ON t."id" = tm."team_id" WHERE tm."user_id" = ${userColumn} AND t."organization_id" = ${organizationColumn}`,
    'tm."created_at", tm."id"',
  );

const statements = new Map<string, string>();

function principalSql(provider: SqlClient["provider"]): string {
  const key = `principal:${provider}`;
  let sql = statements.get(key);
  if (sql === undefined) {
    const projectIds = jsonArray[provider](
      'pm."project_id"',
      'FROM "project_members" pm JOIN "projects" p ON p."id" = pm."project_id" WHERE pm."user_id" = s."user_id" AND p."organization_id" = s."organization_id"',
      'pm."created_at", pm."id"',
    );
    sql =
      'SELECT s."id" AS "session_id", s."user_id", s."expires_at", s."last_seen_at", u."email", u."name", ' +
      'o."id" AS "organization_id", o."name" AS "organization_name", o."slug" AS "organization_slug", m."role" AS "membership_role", ' +
      `${teamRolesOf(provider, 's."user_id"', 's."organization_id"')} AS "team_roles", ${projectIds} AS "project_ids" ` +
      'FROM "login_sessions" s JOIN "users" u ON u."id" = s."user_id" ' +
      'JOIN "organizations" o ON o."id" = s."organization_id" ' +
      'JOIN "memberships" m ON m."organization_id" = s."organization_id" AND m."user_id" = s."user_id" ' +
      `WHERE s."session_hash" = ${sqlPlaceholder(provider, 1)} AND s."revoked_at" IS NULL AND s."expires_at" > ${sqlPlaceholder(provider, 2)} AND u."disabled_at" IS NULL`;
    statements.set(key, sql);
  }
  return sql;
}

function membershipsSql(provider: SqlClient["provider"]): string {
  const key = `memberships:${provider}`;
  let sql = statements.get(key);
  if (sql === undefined) {
    sql =
      'SELECT o."id" AS "organization_id", o."name" AS "organization_name", o."slug" AS "organization_slug", o."authentication_required", m."role" AS "membership_role", ' +
      `${teamRolesOf(provider, 'm."user_id"', 'm."organization_id"')} AS "team_roles" ` +
      'FROM "memberships" m JOIN "organizations" o ON o."id" = m."organization_id" ' +
      `WHERE m."user_id" = ${sqlPlaceholder(provider, 1)} ORDER BY m."created_at", m."id"`;
    statements.set(key, sql);
  }
  return sql;
}

const stringArray = (value: unknown): string[] => {
  const parsed = sqlJson(value ?? "[]");
  return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : [];
};

/**
 * The active session with this hash, as a request needs it, or null when there is none: unknown,
 * revoked or expired at `now`, a disabled account, a session without an organization, or a
 * membership of that organization that no longer exists. One statement on the raw driver,
 * whatever the number of projects, teams or sessions.
 */
export async function findSessionPrincipal(db: SqlClient, sessionHash: string, now: Date): Promise<SessionPrincipalRow | null> {
  const rows = await db.queryStatement({ sql: principalSql(db.provider), args: [sessionHash, sqlTimestamp(db.provider, now)] });
  const row = rows[0];
  if (row === undefined) return null;
  return {
    sessionId: String(row.session_id),
    userId: String(row.user_id),
    email: String(row.email),
    name: String(row.name ?? ""),
    organization: { id: String(row.organization_id), name: String(row.organization_name), slug: String(row.organization_slug) },
    membershipRole: String(row.membership_role),
    teamRoles: stringArray(row.team_roles),
    projectIds: stringArray(row.project_ids),
    expiresAt: sqlDate(row.expires_at) ?? new Date(0),
    lastSeenAt: sqlDate(row.last_seen_at) ?? new Date(0),
  };
}

/** Every organization the user belongs to (oldest membership first) with the roles there, in one statement. */
export async function listUserMemberships(db: SqlClient, userId: string): Promise<UserMembershipRow[]> {
  const rows = await db.queryStatement({ sql: membershipsSql(db.provider), args: [userId] });
  return rows.map((row) => ({
    organization: {
      id: String(row.organization_id),
      name: String(row.organization_name),
      slug: String(row.organization_slug),
      authenticationRequired: row.authentication_required === "sso" ? "sso" : "password",
    },
    membershipRole: String(row.membership_role),
    teamRoles: stringArray(row.team_roles),
  }));
}

/** Records a session's activity (one UPDATE on the raw driver). */
export async function touchSessionLastSeen(db: SqlClient, sessionId: string, lastSeenAt: Date): Promise<void> {
  await db.runStatements([
    {
      sql: `UPDATE "login_sessions" SET "last_seen_at" = ${sqlPlaceholder(db.provider, 1)} WHERE "id" = ${sqlPlaceholder(db.provider, 2)}`,
      args: [sqlTimestamp(db.provider, lastSeenAt), sessionId],
    },
  ]);
}
