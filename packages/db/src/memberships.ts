import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { MEMBERSHIP_ROLES } from "./enums.js";
import { requireOneOf, translateWrite } from "./repository-support.js";
import type { OrganizationRecord } from "./organizations.js";
import type { UserRecord } from "./users.js";

export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

export interface MembershipRecord {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A member of an organization, with the project ids they belong to. */
export interface OrganizationMember extends MembershipRecord {
  user: Omit<UserRecord, "passwordHash">;
  projectIds: string[];
}

const userWithoutPassword = {
  id: true, email: true, emailNormalized: true, name: true, lastLoginAt: true, disabledAt: true, createdAt: true, updatedAt: true,
} as const;

/** Adds a user to an organization; 409 when already a member. */
export async function createMembership(db: DatabaseClient, input: { organizationId: string; userId: string; role: string }): Promise<MembershipRecord> {
  const role = requireOneOf(MEMBERSHIP_ROLES, input.role, "role");
  return translateWrite("membership", () => db.prisma.membership.create({ data: { ...input, role } }));
}

/** Declarative config / invitation acceptance: creates or updates the membership's role. */
export async function upsertMembership(db: DatabaseClient, input: { organizationId: string; userId: string; role: string }): Promise<MembershipRecord> {
  const role = requireOneOf(MEMBERSHIP_ROLES, input.role, "role");
  return db.prisma.membership.upsert({
    where: { organizationId_userId: { organizationId: input.organizationId, userId: input.userId } },
    create: { ...input, role },
    update: { role },
  });
}

export async function getMembership(db: DatabaseClient, organizationId: string, userId: string): Promise<MembershipRecord | null> {
  return db.prisma.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
}

/** The organizations a user belongs to, with their role in each (for login). */
export async function listMembershipsOfUser(db: DatabaseClient, userId: string): Promise<(MembershipRecord & { organization: OrganizationRecord })[]> {
  const rows = await db.prisma.membership.findMany({ where: { userId }, include: { organization: true }, orderBy: { createdAt: "asc" } });
  return rows.map((row) => ({ ...row, organization: { ...row.organization, authenticationRequired: row.organization.authenticationRequired === "sso" ? "sso" : "password" } }));
}

/** Members of an organization with their user (no password hash) and project ids. */
export async function listOrganizationMembers(db: DatabaseClient, organizationId: string): Promise<OrganizationMember[]> {
  const rows = await db.prisma.membership.findMany({
    where: { organizationId },
    include: { user: { select: { ...userWithoutPassword, projectMembers: { where: { project: { organizationId } }, select: { projectId: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(({ user: { projectMembers, ...user }, ...membership }) => ({ ...membership, user, projectIds: projectMembers.map((member) => member.projectId) }));
}

/** Changes a member's role; 404 when not a member. */
export async function updateMembershipRole(db: DatabaseClient, input: { organizationId: string; userId: string; role: string }): Promise<MembershipRecord> {
  const role = requireOneOf(MEMBERSHIP_ROLES, input.role, "role");
  return translateWrite("membership", () =>
    db.prisma.membership.update({ where: { organizationId_userId: { organizationId: input.organizationId, userId: input.userId } }, data: { role } }),
  );
}

/** Removes a user from an organization, with their project memberships and sessions there. 404 when not a member. */
export async function deleteMembership(db: DatabaseClient, organizationId: string, userId: string): Promise<void> {
  await db.prisma.$transaction(async (transaction) => {
    await translateWrite("membership", () => transaction.membership.delete({ where: { organizationId_userId: { organizationId, userId } } }));
    await transaction.projectMember.deleteMany({ where: { userId, project: { organizationId } } });
    await transaction.teamMember.deleteMany({ where: { userId, team: { organizationId } } });
    await transaction.loginSession.deleteMany({ where: { userId, organizationId } });
  });
}

/** Project ids of a user inside one organization (the session's `project_ids`). */
export async function listProjectIdsOfUser(db: DatabaseClient, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db.prisma.projectMember.findMany({ where: { userId, project: { organizationId } }, select: { projectId: true }, orderBy: { createdAt: "asc" } });
  return rows.map((row) => row.projectId);
}

/** Replaces a user's projects inside one organization (ids of other organizations are refused with 400). */
export async function setProjectMembershipsOfUser(db: DatabaseClient, input: { organizationId: string; userId: string; projectIds: string[] }): Promise<string[]> {
  const wanted = [...new Set(input.projectIds)];
  return db.prisma.$transaction(async (transaction) => {
    const found = await transaction.project.findMany({ where: { id: { in: wanted }, organizationId: input.organizationId }, select: { id: true } });
    if (found.length !== wanted.length) {
      throw new GatewayError("invalid_request", { message: "project_ids contains an unknown project", param: "project_ids" });
    }
    await transaction.projectMember.deleteMany({ where: { userId: input.userId, project: { organizationId: input.organizationId }, projectId: { notIn: wanted } } });
    const existing = new Set(
      (await transaction.projectMember.findMany({ where: { userId: input.userId, projectId: { in: wanted } }, select: { projectId: true } })).map((row) => row.projectId),
    );
    const missing = wanted.filter((projectId) => !existing.has(projectId));
    if (missing.length > 0) await transaction.projectMember.createMany({ data: missing.map((projectId) => ({ projectId, userId: input.userId })) });
    return wanted;
  });
}
