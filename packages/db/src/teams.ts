import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { MEMBERSHIP_ROLES } from "./enums.js";
import { requireOneOf, translateWrite } from "./repository-support.js";

/** A team with its member count (the `organization.team` object's fields). */
export interface TeamRecord {
  id: string;
  organizationId: string;
  name: string;
  defaultRole: string;
  memberCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TeamMemberRecord {
  id: string;
  teamId: string;
  userId: string;
  role: string | null;
  createdAt: Date;
}

const withCount = { _count: { select: { members: true } } } as const;
type TeamRow = { id: string; organizationId: string; name: string; defaultRole: string; createdAt: Date; updatedAt: Date; _count: { members: number } };
const toRecord = ({ _count, ...row }: TeamRow): TeamRecord => ({ ...row, memberCount: _count.members });

/** Creates a team; 409 when the name exists in the organization. */
export async function createTeam(db: DatabaseClient, input: { organizationId: string; name: string; defaultRole: string }): Promise<TeamRecord> {
  const defaultRole = requireOneOf(MEMBERSHIP_ROLES, input.defaultRole, "default_role");
  return toRecord(await translateWrite("team", () => db.prisma.team.create({ data: { ...input, defaultRole }, include: withCount })));
}

export async function listTeams(db: DatabaseClient, organizationId: string): Promise<TeamRecord[]> {
  return (await db.prisma.team.findMany({ where: { organizationId }, include: withCount, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

/** The team, or null when it does not exist in this organization. */
export async function getTeam(db: DatabaseClient, organizationId: string, id: string): Promise<TeamRecord | null> {
  const row = await db.prisma.team.findFirst({ where: { id, organizationId }, include: withCount });
  return row ? toRecord(row) : null;
}

/** 404 when the team is not in this organization. */
export async function updateTeam(db: DatabaseClient, organizationId: string, id: string, changes: { name?: string; defaultRole?: string }): Promise<TeamRecord> {
  const data: Record<string, unknown> = {};
  if (changes.name !== undefined) data.name = changes.name;
  if (changes.defaultRole !== undefined) data.defaultRole = requireOneOf(MEMBERSHIP_ROLES, changes.defaultRole, "default_role");
  return toRecord(await translateWrite("team", () => db.prisma.team.update({ where: { id, organizationId }, data, include: withCount })));
}

/** Deletes a team and its memberships; keys of the team keep working with `teamId` cleared. */
export async function deleteTeam(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("team", () => db.prisma.team.delete({ where: { id, organizationId } }));
}

/** Adds (or updates the role of) a team member; the user must belong to the team's organization (400 otherwise). */
export async function addTeamMember(db: DatabaseClient, input: { organizationId: string; teamId: string; userId: string; role?: string | null }): Promise<TeamMemberRecord> {
  const role = input.role == null ? null : requireOneOf(MEMBERSHIP_ROLES, input.role, "role");
  const [team, membership] = await Promise.all([
    db.prisma.team.findFirst({ where: { id: input.teamId, organizationId: input.organizationId }, select: { id: true } }),
    db.prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: input.organizationId, userId: input.userId } } }),
  ]);
  if (!team) throw new GatewayError("not_found", { message: "team not found" });
  if (!membership) throw new GatewayError("invalid_request", { message: "the user is not a member of this organization", param: "user_id" });
  return db.prisma.teamMember.upsert({
    where: { teamId_userId: { teamId: input.teamId, userId: input.userId } },
    create: { teamId: input.teamId, userId: input.userId, role },
    update: { role },
  });
}

/** Removes a member; returns whether they were one. */
export async function removeTeamMember(db: DatabaseClient, input: { organizationId: string; teamId: string; userId: string }): Promise<boolean> {
  const result = await db.prisma.teamMember.deleteMany({ where: { teamId: input.teamId, userId: input.userId, team: { organizationId: input.organizationId } } });
  return result.count > 0;
}

/** A team member with the account's id, email and name. */
export type TeamMemberWithUser = TeamMemberRecord & { user: { id: string; email: string; name: string } };

const memberUser = { user: { select: { id: true, email: true, name: true } } } as const;

/** Members of a team, oldest first. */
export async function listTeamMembers(db: DatabaseClient, organizationId: string, teamId: string): Promise<TeamMemberWithUser[]> {
  return db.prisma.teamMember.findMany({ where: { teamId, team: { organizationId } }, include: memberUser, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** One member of a team; null when the user is not in the team (or the team not in the organization). */
export async function getTeamMember(db: DatabaseClient, input: { organizationId: string; teamId: string; userId: string }): Promise<TeamMemberWithUser | null> {
  return db.prisma.teamMember.findFirst({ where: { teamId: input.teamId, userId: input.userId, team: { organizationId: input.organizationId } }, include: memberUser });
}

/** The role a user holds through one team: their own team role, else the team's default role. */
export interface TeamRoleOfUser {
  organizationId: string;
  teamId: string;
  role: string;
}

/** The roles a user holds through teams (every organization, or one), for computing the effective role. */
export async function listTeamRolesOfUser(db: DatabaseClient, userId: string, organizationId?: string): Promise<TeamRoleOfUser[]> {
  const rows = await db.prisma.teamMember.findMany({
    where: { userId, ...(organizationId === undefined ? {} : { team: { organizationId } }) },
    select: { teamId: true, role: true, team: { select: { organizationId: true, defaultRole: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => ({ organizationId: row.team.organizationId, teamId: row.teamId, role: row.role ?? row.team.defaultRole }));
}
