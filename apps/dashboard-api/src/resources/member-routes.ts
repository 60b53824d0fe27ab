import {
  deleteMembership,
  getOrganization,
  getOrganizationMember,
  listOrganizationMembers,
  setProjectMembershipsOfUser,
  updateMembershipRole,
  updateOrganization,
  type OrganizationMember,
  type OrganizationRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { assertSsoCanBeRequired } from "../auth/assert-sso-can-be-required.js";
import { roleLabels, roles, type Role } from "../auth/role-permissions.js";
import { deletedObjectSchema, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found } from "./resource-helpers.js";

/** A member of the organization (`organization.user`). */
export const memberSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(roles),
  role_label: z.string(),
  project_ids: z.array(z.string()).describe("Projects the member is assigned to"),
  joined_at: timestamp,
  last_login_at: timestamp.nullable(),
  object: z.literal("organization.user"),
});

/** The organization. */
export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  authentication_required: z.enum(["password", "sso"]),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("organization"),
});

const params = idParams("user_id");
const updateBody = z
  .object({
    role: z.enum(roles),
    project_ids: z.array(resourceId).max(1000).describe("Replaces the member's project assignments"),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const organizationBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    authentication_required: z
      .enum(["password", "sso"])
      .describe("`sso` is refused (400) unless single sign-on is configured and an owner has signed in through it"),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");

/** Member and organization routes: `/api/members`, `/api/organization`. */
export function createMemberRoutes(services: DashboardServices): DashboardRoute[] {
  function present(organizationId: string, membership: OrganizationMember) {
    const role = membership.role as Role;
    return {
      id: membership.userId,
      organization_id: organizationId,
      email: membership.user.email,
      name: membership.user.name,
      role,
      role_label: roleLabels[role] ?? role,
      project_ids: membership.projectIds,
      joined_at: iso(membership.createdAt),
      last_login_at: iso(membership.user.lastLoginAt),
      object: "organization.user" as const,
    };
  }
  const load = (organizationId: string, userId: string) => getOrganizationMember(services.database, organizationId, userId).then((row) => found(row, "User"));
  const loadOrganization = (organizationId: string) => getOrganization(services.database, organizationId).then((row) => found(row, "Organization"));
  const presentOrganization = (row: OrganizationRecord) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    authentication_required: row.authenticationRequired,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "organization" as const,
  });

  return [
    defineRoute({
      method: "get",
      path: "/api/organization",
      operationId: "get_organization",
      summary: "The current organization",
      tag: "Organization",
      access: "organization:read",
      responses: [{ status: 200, description: "The organization", schema: organizationSchema }],
      async handler({ principal }) {
        return { status: 200, body: presentOrganization(await loadOrganization(principal.organization.id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/organization",
      operationId: "update_organization",
      summary: "Update the current organization",
      description:
        "`authentication_required: sso` disables password login for the organization. It is refused with 400 " +
        "`invalid_request` (`details.param`: `authentication_required`) unless single sign-on is configured for the organization and " +
        "an owner has signed in through it, so that nobody is locked out. " +
        "An organization that already requires it keeps it when other fields change.",
      tag: "Organization",
      access: "organization:write",
      body: organizationBody,
      exampleBody: { name: "Example Inc." },
      responses: [{ status: 200, description: "The organization", schema: organizationSchema }],
      async handler(context) {
        const { principal, body } = context;
        const before = presentOrganization(await loadOrganization(principal.organization.id));
        if (body.authentication_required === "sso" && before.authentication_required !== "sso") await assertSsoCanBeRequired(services, principal.organization.id);
        const row = await updateOrganization(services.database, principal.organization.id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.authentication_required !== undefined ? { authenticationRequired: body.authentication_required } : {}),
        });
        const after = presentOrganization(row);
        await auditChange(services, context, { action: "organization.updated", targetType: "organization", targetId: row.id, before, after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/members",
      operationId: "list_members",
      summary: "List the organization's members",
      tag: "Members",
      access: "members:read",
      responses: [{ status: 200, description: "Members", schema: listObjectSchema(memberSchema) }],
      async handler({ principal }) {
        const rows = await listOrganizationMembers(services.database, principal.organization.id);
        return { status: 200, body: fullList(rows.map((row) => present(principal.organization.id, row))) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/members/{user_id}",
      operationId: "get_member",
      summary: "Get a member",
      tag: "Members",
      access: "members:read",
      params,
      responses: [{ status: 200, description: "The member", schema: memberSchema }],
      async handler({ principal, params: { user_id } }) {
        return { status: 200, body: present(principal.organization.id, await load(principal.organization.id, user_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/members/{user_id}",
      operationId: "update_member",
      summary: "Change a member's role or project assignments",
      description: "Only owners grant or take away the owner role; the last owner cannot be demoted.",
      tag: "Members",
      access: "members:write",
      params,
      body: updateBody,
      exampleBody: { role: "viewer" },
      responses: [{ status: 200, description: "The member", schema: memberSchema }],
      async handler(context) {
        const { principal, params: { user_id }, body } = context;
        const organizationId = principal.organization.id;
        const existing = await load(organizationId, user_id);
        const before = present(organizationId, existing);
        if (body.role !== undefined && body.role !== existing.role) {
          if ((body.role === "owner" || existing.role === "owner") && principal.role !== "owner") {
            throw new GatewayError("permission_denied", { message: "Only owners may grant or take away the owner role.", param: "role" });
          }
          await updateMembershipRole(services.database, { organizationId, userId: user_id, role: body.role });
        }
        if (body.project_ids !== undefined) {
          await setProjectMembershipsOfUser(services.database, { organizationId, userId: user_id, projectIds: body.project_ids });
        }
        const after = present(organizationId, await load(organizationId, user_id));
        await auditChange(services, context, { action: "member.updated", targetType: "user", targetId: user_id, before, after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/members/{user_id}",
      operationId: "remove_member",
      summary: "Remove a member from the organization",
      description: "Ends the member's sessions in this organization and removes their team and project assignments here. The account itself remains.",
      tag: "Members",
      access: "members:write",
      params,
      responses: [{ status: 200, description: "Removed", schema: deletedObjectSchema("organization.user") }],
      async handler(context) {
        const { principal, params: { user_id } } = context;
        const organizationId = principal.organization.id;
        const existing = await load(organizationId, user_id);
        if (existing.role === "owner" && principal.role !== "owner") throw new GatewayError("permission_denied", { message: "Only owners may remove an owner." });
        const before = present(organizationId, existing);
        await deleteMembership(services.database, organizationId, user_id, services.now());
        await auditChange(services, context, { action: "member.removed", targetType: "user", targetId: user_id, before });
        return { status: 200, body: { id: user_id, object: "organization.user", deleted: true } };
      },
    }),
  ];
}
