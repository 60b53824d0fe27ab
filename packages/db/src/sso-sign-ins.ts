import { z } from "zod";
import type { DatabaseClient } from "./create-database.js";
import { acceptInvitation } from "./invitations.js";
import { parseJsonColumn } from "./json-values.js";
import { normalizeEmail } from "./repository-support.js";
import type { SecretBinding, SecretBox } from "./secret-box.js";
import { newBoundRowId } from "./secret-bindings.js";

/** Why a single sign-on was started: to sign in, or to test the configuration (no session). */
export type SsoLoginPurpose = "sign_in" | "test";

/** A started single sign-on, as the callback needs it. */
export interface SsoLoginState {
  id: string;
  organizationId: string;
  purpose: SsoLoginPurpose;
  userId: string | null;
  codeVerifier: string;
  nonce: string;
}

const secretsSchema = z.object({ code_verifier: z.string(), nonce: z.string() });

function stateSecretsBinding(organizationId: string, id: string): SecretBinding {
  return { organizationId, column: "sso_login_states.secrets_ciphertext", rowId: id };
}

/** Stores a started single sign-on (only the state's hash; the verifier and nonce encrypted). */
export async function createSsoLoginState(
  db: DatabaseClient,
  input: { stateHash: string; organizationId: string; purpose: SsoLoginPurpose; userId: string | null; codeVerifier: string; nonce: string; expiresAt: Date; now: Date },
  options: { secretBox: SecretBox },
): Promise<void> {
  const id = newBoundRowId();
  const secretsCiphertext = options.secretBox.encrypt(
    JSON.stringify({ code_verifier: input.codeVerifier, nonce: input.nonce }),
    stateSecretsBinding(input.organizationId, id),
  );
  // Started sign-ins that were never finished are of no use a day later.
  await db.prisma.ssoLoginState.deleteMany({ where: { expiresAt: { lt: new Date(input.now.getTime() - 86_400_000) } } });
  await db.prisma.ssoLoginState.create({
    data: { id, stateHash: input.stateHash, organizationId: input.organizationId, purpose: input.purpose, userId: input.userId, secretsCiphertext, expiresAt: input.expiresAt },
  });
}

/**
 * Consumes a started single sign-on by its state's hash, once: null when the state is unknown,
 * already used (a replay) or expired. The row is kept (marked consumed) for a test's result.
 */
export async function consumeSsoLoginState(db: DatabaseClient, stateHash: string, now: Date, options: { secretBox: SecretBox }): Promise<SsoLoginState | null> {
  const claimed = await db.prisma.ssoLoginState.updateMany({ where: { stateHash, consumedAt: null, expiresAt: { gt: now } }, data: { consumedAt: now } });
  if (claimed.count === 0) return null;
  const row = await db.prisma.ssoLoginState.findUnique({ where: { stateHash } });
  if (row === null) return null;
  const secrets = parseJsonColumn(secretsSchema, JSON.parse(options.secretBox.decrypt(row.secretsCiphertext, stateSecretsBinding(row.organizationId, row.id))), `sso_login_states ${row.id}`);
  return {
    id: row.id,
    organizationId: row.organizationId,
    purpose: row.purpose === "test" ? "test" : "sign_in",
    userId: row.userId,
    codeVerifier: secrets.code_verifier,
    nonce: secrets.nonce,
  };
}

/** Stores the outcome of a test run on its (consumed) state. */
export async function recordSsoTestResult(db: DatabaseClient, id: string, result: Record<string, unknown>): Promise<void> {
  await db.prisma.ssoLoginState.update({ where: { id }, data: { result: result as never } });
}

/** A test run's outcome, for the user who started it only; null when unknown, another's, or not finished. */
export async function readSsoTestResult(db: DatabaseClient, input: { id: string; organizationId: string; userId: string }): Promise<Record<string, unknown> | null> {
  const row = await db.prisma.ssoLoginState.findFirst({ where: { id: input.id, organizationId: input.organizationId, userId: input.userId, purpose: "test" } });
  if (row === null || row.result === null || typeof row.result !== "object") return null;
  return row.result as Record<string, unknown>;
}

/** The account linked to a provider's subject in an organization, if any. */
export async function findSsoIdentityUser(db: DatabaseClient, input: { organizationId: string; issuer: string; subject: string }): Promise<string | null> {
  const row = await db.prisma.ssoIdentity.findUnique({ where: { organizationId_issuer_subject: input }, select: { userId: true } });
  return row?.userId ?? null;
}

/** Links (or refreshes the link of) a provider's subject to an account. */
export async function upsertSsoIdentity(
  db: DatabaseClient,
  input: { organizationId: string; issuer: string; subject: string; userId: string; email: string; at: Date },
): Promise<void> {
  const key = { organizationId: input.organizationId, issuer: input.issuer, subject: input.subject };
  await db.prisma.ssoIdentity.upsert({
    where: { organizationId_issuer_subject: key },
    create: { ...key, userId: input.userId, email: input.email, lastSignInAt: input.at },
    update: { userId: input.userId, email: input.email, lastSignInAt: input.at },
  });
}

/**
 * Accepts the newest pending invitation of an email to an organization (membership, role and
 * projects as invited). False when there is none (or it was accepted meanwhile).
 */
export async function acceptPendingInvitationByEmail(db: DatabaseClient, input: { organizationId: string; email: string; userId: string; now: Date }): Promise<boolean> {
  const row = await db.prisma.invitation.findFirst({
    where: { organizationId: input.organizationId, emailNormalized: normalizeEmail(input.email), acceptedAt: null, revokedAt: null, expiresAt: { gt: input.now } },
    orderBy: { createdAt: "desc" },
    select: { tokenHash: true },
  });
  if (row === null) return false;
  try {
    await acceptInvitation(db, { tokenHash: row.tokenHash, userId: input.userId, now: input.now });
    return true;
  } catch {
    return false;
  }
}

/** Team and project memberships before and after {@link syncSsoGroupMemberships}. */
export interface SsoGroupSyncResult {
  teamIdsBefore: string[];
  teamIdsAfter: string[];
  projectIdsBefore: string[];
  projectIdsAfter: string[];
}

/**
 * Makes the user's membership of the MANAGED teams and projects (those named by a mapping)
 * exactly the granted ones; teams and projects no mapping names are left as they are. Ids of
 * teams or projects that no longer exist are skipped.
 */
export async function syncSsoGroupMemberships(
  db: DatabaseClient,
  input: { organizationId: string; userId: string; managedTeamIds: string[]; grantedTeamIds: string[]; managedProjectIds: string[]; grantedProjectIds: string[] },
): Promise<SsoGroupSyncResult> {
  return db.prisma.$transaction(async (transaction) => {
    const teams = await transaction.teamMember.findMany({ where: { userId: input.userId, team: { organizationId: input.organizationId } }, select: { teamId: true } });
    const projects = await transaction.projectMember.findMany({ where: { userId: input.userId, project: { organizationId: input.organizationId } }, select: { projectId: true } });
    const teamIdsBefore = teams.map((row) => row.teamId).sort();
    const projectIdsBefore = projects.map((row) => row.projectId).sort();
    const existingTeams = new Set(
      (await transaction.team.findMany({ where: { organizationId: input.organizationId, id: { in: input.managedTeamIds } }, select: { id: true } })).map((row) => row.id),
    );
    const existingProjects = new Set(
      (await transaction.project.findMany({ where: { organizationId: input.organizationId, id: { in: input.managedProjectIds } }, select: { id: true } })).map((row) => row.id),
    );
    for (const teamId of existingTeams) {
      const wanted = input.grantedTeamIds.includes(teamId);
      const has = teamIdsBefore.includes(teamId);
      if (wanted && !has) await transaction.teamMember.create({ data: { teamId, userId: input.userId } });
      if (!wanted && has) await transaction.teamMember.deleteMany({ where: { teamId, userId: input.userId } });
    }
    for (const projectId of existingProjects) {
      const wanted = input.grantedProjectIds.includes(projectId);
      const has = projectIdsBefore.includes(projectId);
      if (wanted && !has) await transaction.projectMember.create({ data: { projectId, userId: input.userId } });
      if (!wanted && has) await transaction.projectMember.deleteMany({ where: { projectId, userId: input.userId } });
    }
    const teamIdsAfter = (await transaction.teamMember.findMany({ where: { userId: input.userId, team: { organizationId: input.organizationId } }, select: { teamId: true } }))
      .map((row) => row.teamId)
      .sort();
    const projectIdsAfter = (
      await transaction.projectMember.findMany({ where: { userId: input.userId, project: { organizationId: input.organizationId } }, select: { projectId: true } })
    )
      .map((row) => row.projectId)
      .sort();
    return { teamIdsBefore, teamIdsAfter, projectIdsBefore, projectIdsAfter };
  });
}
