import {
  addTeamMember,
  createTeam,
  deleteTeam,
  getMembership,
  getTeam,
  getTeamMember,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  updateTeam,
  type TeamRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { roles } from "../auth/role-permissions.js";
import { deletedObjectSchema, displayName, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

/** The `organization.team` object. */
export const teamSchema = z.object({
  id: z.string(),
  name: z.string(),
  default_role: z.enum(roles),
  member_count: z.number().int().min(0),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("organization.team"),
});

/** A team member. */
export const teamMemberSchema = z.object({
  team_id: z.string(),
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(roles).describe("The member's team role: its own, else the team's default_role"),
  role_is_default: z.boolean(),
  created_at: timestamp,
  object: z.literal("organization.team.member"),
});

/** Renders a team (with its member count). */
export function presentTeam(row: TeamRecord): z.infer<typeof teamSchema> {
  return {
    id: row.id,
    name: row.name,
    default_role: row.defaultRole as (typeof roles)[number],
    member_count: row.memberCount,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "organization.team",
  };
}

const createBody = z.object({ name: displayName, default_role: z.enum(roles).default("member") });
const updateBody = z.object({ name: displayName, default_role: z.enum(roles) }).partial().refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("team_id");
const memberParams = z.object({ team_id: resourceId, user_id: resourceId });
const memberBody = z.object({ role: z.enum(roles).nullable().default(null).describe("null = the team's default_role") });

/** Team routes under `/api/teams`, with membership changes. */
export function createTeamRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getTeam(services.database, organizationId, id).then((row) => found(row, "Team"));

  return [
    defineRoute({
      method: "post",
      path: "/api/teams",
      operationId: "create_team",
      summary: "Create a team",
      description: "Team members hold at least the team's role (their own team role, else `default_role`) in the organization.",
      tag: "Teams",
      access: "teams:write",
      body: createBody,
      exampleBody: { name: "Platform", default_role: "member" },
      responses: [{ status: 201, description: "The team", schema: teamSchema }],
      async handler(context) {
        const { principal, body } = context;
        if (body.default_role === "owner" && principal.role !== "owner") {
          throw new GatewayError("permission_denied", { message: "Only owners may create teams that grant the owner role.", param: "default_role" });
        }
        const created = await withConflict(
          () => createTeam(services.database, { organizationId: principal.organization.id, name: body.name, defaultRole: body.default_role }),
          "A team with this name already exists.",
          "name",
        );
        const after = presentTeam(created);
        await auditChange(services, context, { action: "team.created", targetType: "team", targetId: created.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/teams",
      operationId: "list_teams",
      summary: "List teams",
      tag: "Teams",
      access: "teams:read",
      responses: [{ status: 200, description: "Teams", schema: listObjectSchema(teamSchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listTeams(services.database, principal.organization.id)).map(presentTeam)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/teams/{team_id}",
      operationId: "get_team",
      summary: "Get a team",
      tag: "Teams",
      access: "teams:read",
      params,
      responses: [{ status: 200, description: "The team", schema: teamSchema }],
      async handler({ principal, params: { team_id } }) {
        return { status: 200, body: presentTeam(await load(principal.organization.id, team_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/teams/{team_id}",
      operationId: "update_team",
      summary: "Update a team",
      tag: "Teams",
      access: "teams:write",
      params,
      body: updateBody,
      exampleBody: { name: "Platform engineering" },
      responses: [{ status: 200, description: "The team", schema: teamSchema }],
      async handler(context) {
        const { principal, params: { team_id }, body } = context;
        const existing = await load(principal.organization.id, team_id);
        if ((body.default_role === "owner" || existing.defaultRole === "owner") && body.default_role !== undefined && principal.role !== "owner") {
          throw new GatewayError("permission_denied", { message: "Only owners may change a team's owner role.", param: "default_role" });
        }
        const updated = await withConflict(
          () =>
            updateTeam(services.database, existing.organizationId, existing.id, {
              ...(body.name !== undefined ? { name: body.name } : {}),
              ...(body.default_role !== undefined ? { defaultRole: body.default_role } : {}),
            }),
          "A team with this name already exists.",
          "name",
        );
        const after = presentTeam(updated);
        await auditChange(services, context, { action: "team.updated", targetType: "team", targetId: existing.id, before: presentTeam(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/teams/{team_id}",
      operationId: "delete_team",
      summary: "Delete a team",
      description: "Removes the team and its memberships; API keys of the team keep working without a team.",
      tag: "Teams",
      access: "teams:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("organization.team") }],
      async handler(context) {
        const { principal, params: { team_id } } = context;
        const existing = await load(principal.organization.id, team_id);
        await deleteTeam(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "team.deleted", targetType: "team", targetId: existing.id, before: presentTeam(existing) });
        return { status: 200, body: { id: existing.id, object: "organization.team", deleted: true } };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/teams/{team_id}/members",
      operationId: "list_team_members",
      summary: "List a team's members",
      tag: "Teams",
      access: "teams:read",
      params,
      responses: [{ status: 200, description: "Members", schema: listObjectSchema(teamMemberSchema) }],
      async handler({ principal, params: { team_id } }) {
        const team = await load(principal.organization.id, team_id);
        const rows = await listTeamMembers(services.database, team.organizationId, team.id);
        return { status: 200, body: fullList(rows.map((row) => presentTeamMember(team, row))) };
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/teams/{team_id}/members/{user_id}",
      operationId: "put_team_member",
      summary: "Add a member to a team (or change their team role)",
      description: "The user must be a member of the organization. Answers 201 when added, 200 when changed.",
      tag: "Teams",
      access: "teams:write",
      params: memberParams,
      body: memberBody,
      exampleBody: { role: null },
      responses: [
        { status: 201, description: "Added", schema: teamMemberSchema },
        { status: 200, description: "Changed", schema: teamMemberSchema },
      ],
      async handler(context) {
        const { principal, params: { team_id, user_id }, body } = context;
        const team = await load(principal.organization.id, team_id);
        found(await getMembership(services.database, team.organizationId, user_id), "User");
        const effective = body.role ?? team.defaultRole;
        if (effective === "owner" && principal.role !== "owner") {
          throw new GatewayError("permission_denied", { message: "Only owners may grant the owner role.", param: "role" });
        }
        const memberKey = { organizationId: team.organizationId, teamId: team.id, userId: user_id };
        const existing = await getTeamMember(services.database, memberKey);
        await addTeamMember(services.database, { ...memberKey, role: body.role });
        const after = presentTeamMember(team, found(await getTeamMember(services.database, memberKey), "Team member"));
        await auditChange(services, context, {
          action: existing ? "team.member_updated" : "team.member_added",
          targetType: "team",
          targetId: team.id,
          ...(existing ? { before: { user_id, role: existing.role } } : {}),
          after,
        });
        return { status: existing ? 200 : 201, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/teams/{team_id}/members/{user_id}",
      operationId: "delete_team_member",
      summary: "Remove a member from a team",
      tag: "Teams",
      access: "teams:write",
      params: memberParams,
      responses: [{ status: 200, description: "Removed", schema: deletedObjectSchema("organization.team.member") }],
      async handler(context) {
        const { principal, params: { team_id, user_id } } = context;
        const team = await load(principal.organization.id, team_id);
        const memberKey = { organizationId: team.organizationId, teamId: team.id, userId: user_id };
        const existing = found(await getTeamMember(services.database, memberKey), "Team member");
        await removeTeamMember(services.database, memberKey);
        await auditChange(services, context, { action: "team.member_removed", targetType: "team", targetId: team.id, before: presentTeamMember(team, existing) });
        return { status: 200, body: { id: user_id, object: "organization.team.member", deleted: true } };
      },
    }),
  ];
}

function presentTeamMember(
  team: { id: string; defaultRole: string },
  row: { userId: string; role: string | null; createdAt: Date; user: { email: string; name: string } },
): z.infer<typeof teamMemberSchema> {
  return {
    team_id: team.id,
    user_id: row.userId,
    email: row.user.email,
    name: row.user.name,
    role: (row.role ?? team.defaultRole) as (typeof roles)[number],
    role_is_default: row.role === null,
    created_at: iso(row.createdAt),
    object: "organization.team.member",
  };
}
