import type { DatabaseClient } from "./create-database.js";
import type { OrganizationRecord } from "./organizations.js";
import { translateWrite } from "./repository-support.js";
import type { UserRecord } from "./users.js";

export interface LoginSessionRecord {
  id: string;
  sessionHash: string;
  userId: string;
  organizationId: string | null;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
  revokedAt: Date | null;
}

/** An active session with its account (no password hash) and organization, as a request needs them. */
export interface ActiveLoginSession extends LoginSessionRecord {
  user: Omit<UserRecord, "passwordHash">;
  organization: OrganizationRecord | null;
}

/** Stores a login session under the hash of its id (`hashToken(generateSessionId())`). `lastSeenAt` defaults to now. */
export async function createLoginSession(
  db: DatabaseClient,
  input: { sessionHash: string; userId: string; organizationId: string | null; expiresAt: Date; userAgent?: string | null; ipAddress?: string | null; lastSeenAt?: Date },
): Promise<LoginSessionRecord> {
  return translateWrite("login session", () =>
    db.prisma.loginSession.create({
      data: { ...input, userAgent: input.userAgent ?? null, ipAddress: input.ipAddress ?? null },
    }),
  );
}

/**
 * The session with this hash if it is neither revoked nor expired at `now`, with its user and
 * organization (one query: every dashboard request resolves its session).
 */
export async function findActiveLoginSession(db: DatabaseClient, sessionHash: string, now = new Date()): Promise<ActiveLoginSession | null> {
  const row = await db.prisma.loginSession.findFirst({
    where: { sessionHash, revokedAt: null, expiresAt: { gt: now } },
    include: { user: { omit: { passwordHash: true } }, organization: true },
  });
  if (!row) return null;
  const organization = row.organization === null ? null : { ...row.organization, authenticationRequired: row.organization.authenticationRequired === "sso" ? ("sso" as const) : ("password" as const) };
  return { ...row, organization };
}

/** Records activity (and optionally slides the expiry). */
export async function touchLoginSession(db: DatabaseClient, id: string, input: { lastSeenAt: Date; expiresAt?: Date }): Promise<void> {
  await db.prisma.loginSession.updateMany({ where: { id }, data: input });
}

/** Switches the organization a session acts in. */
export async function setLoginSessionOrganization(db: DatabaseClient, id: string, organizationId: string): Promise<void> {
  await translateWrite("login session", () => db.prisma.loginSession.update({ where: { id }, data: { organizationId } }));
}

/** Logs out: revokes the session with this hash. Returns whether one was active. */
export async function revokeLoginSession(db: DatabaseClient, sessionHash: string, now = new Date()): Promise<boolean> {
  return (await db.prisma.loginSession.updateMany({ where: { sessionHash, revokedAt: null }, data: { revokedAt: now } })).count > 0;
}

/** Revokes every session of a user (password change). */
export async function revokeLoginSessionsOfUser(db: DatabaseClient, userId: string, now = new Date()): Promise<number> {
  return (await db.prisma.loginSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } })).count;
}

/** Housekeeping: deletes sessions expired before `before`. */
export async function deleteExpiredLoginSessions(db: DatabaseClient, before = new Date()): Promise<number> {
  return (await db.prisma.loginSession.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}
