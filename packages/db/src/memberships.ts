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

type Transaction = Parameters<Parameters<DatabaseClient["prisma"]["$transaction"]>[0]>[0];

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
  const existing = await getMembership(db, input.organizationId, input.userId);
  if (existing?.role === role) return existing;
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

function memberInclude(organizationId: string) {
  return {
    user: {
      select: {
        ...userWithoutPassword,
        projectMembers: { where: { project: { organizationId } }, select: { projectId: true }, orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] },
      },
    },
  };
}

type MemberRow = MembershipRecord & { user: Omit<UserRecord, "passwordHash"> & { projectMembers: { projectId: string }[] } };
const toMember = ({ user: { projectMembers, ...user }, ...membership }: MemberRow): OrganizationMember => ({
  ...membership,
  user,
  projectIds: projectMembers.map((member) => member.projectId),
});

/** Members of an organization with their user (no password hash) and project ids, oldest first. */
export async function listOrganizationMembers(db: DatabaseClient, organizationId: string): Promise<OrganizationMember[]> {
  const rows = await db.prisma.membership.findMany({ where: { organizationId }, include: memberInclude(organizationId), orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toMember);
}

/** One member of an organization with their user and project ids; null when the user is not a member. */
export async function getOrganizationMember(db: DatabaseClient, organizationId: string, userId: string): Promise<OrganizationMember | null> {
  const row = await db.prisma.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } }, include: memberInclude(organizationId) });
  return row ? toMember(row) : null;
}

/** 409 when the membership is the organization's only owner (an organization always keeps one). */
async function assertNotLastOwner(transaction: Transaction, organizationId: string, userId: string, verb: "demoted" | "removed"): Promise<void> {
  const membership = await transaction.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { role: true } });
  if (membership?.role !== "owner") return;
  const owners = await transaction.membership.count({ where: { organizationId, role: "owner" } });
  if (owners <= 1) {
    throw new GatewayError("conflict", { message: `The organization's last owner cannot be ${verb}.`, ...(verb === "demoted" ? { param: "role" } : {}) });
  }
}

/** Changes a member's role; 404 when not a member, 409 when it would demote the organization's last owner. */
export async function updateMembershipRole(db: DatabaseClient, input: { organizationId: string; userId: string; role: string }): Promise<MembershipRecord> {
  const role = requireOneOf(MEMBERSHIP_ROLES, input.role, "role");
  return db.prisma.$transaction(async (transaction) => {
    if (role !== "owner") await assertNotLastOwner(transaction, input.organizationId, input.userId, "demoted");
    return translateWrite("membership", () =>
      transaction.membership.update({ where: { organizationId_userId: { organizationId: input.organizationId, userId: input.userId } }, data: { role } }),
    );
  });
}

/**
 * Removes a user from an organization: their team and project memberships there go with it and
 * their sessions there are revoked (kept as evidence). The account stays. 404 when not a member,
 * 409 for the organization's last owner.
 */
export async function deleteMembership(db: DatabaseClient, organizationId: string, userId: string, now = new Date()): Promise<void> {
  await db.prisma.$transaction(async (transaction) => {
    await assertNotLastOwner(transaction, organizationId, userId, "removed");
    await transaction.teamMember.deleteMany({ where: { userId, team: { organizationId } } });
    await transaction.projectMember.deleteMany({ where: { userId, project: { organizationId } } });
    await transaction.loginSession.updateMany({ where: { userId, organizationId, revokedAt: null }, data: { revokedAt: now } });
    await translateWrite("membership", () => transaction.membership.delete({ where: { organizationId_userId: { organizationId, userId } } }));
  });
}

/** Project ids of a user inside one organization (the session's `project_ids`), in assignment order. */
export async function listProjectIdsOfUser(db: DatabaseClient, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db.prisma.projectMember.findMany({
    where: { userId, project: { organizationId } },
    select: { projectId: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => row.projectId);
}

/**
 * Replaces a user's projects inside one organization, in the given order (the order
 * `listProjectIdsOfUser` answers). Ids of other organizations are refused with 400.
 */
export async function setProjectMembershipsOfUser(db: DatabaseClient, input: { organizationId: string; userId: string; projectIds: string[] }): Promise<string[]> {
  const wanted = [...new Set(input.projectIds)];
  return db.prisma.$transaction(async (transaction) => {
    const found = await transaction.project.findMany({ where: { id: { in: wanted }, organizationId: input.organizationId }, select: { id: true } });
    if (found.length !== wanted.length) {
      throw new GatewayError("invalid_request", { message: "project_ids names a project of another organization or none.", param: "project_ids" });
    }
    await transaction.projectMember.deleteMany({ where: { userId: input.userId, project: { organizationId: input.organizationId } } });
    for (const projectId of wanted) await transaction.projectMember.create({ data: { projectId, userId: input.userId } });
    return wanted;
  });
}
