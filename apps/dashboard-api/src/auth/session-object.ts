import { z } from "zod";
import { roleLabels, type Role } from "./role-permissions.js";

const organizationSummary = z.object({ id: z.string(), name: z.string(), slug: z.string(), object: z.literal("organization") });
const organizationUser = z.object({
  id: z.string(),
  organization_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  role_label: z.string(),
  project_ids: z.array(z.string()).describe("Projects the user is assigned to"),
  all_projects: z.boolean().describe("Owners and admins: true, they act on every project of the organization (not listed in `project_ids`)"),
  object: z.literal("organization.user"),
});

/** One organization the person belongs to (in `organizations` and the 409 selection error). */
export const sessionOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  user_id: z.string(),
  role: z.string(),
  authentication_required: z.enum(["password", "sso"]),
});

/** The `auth.session` object (login, session). */
export const authSessionSchema = z.object({
  person: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  organizations: z.array(sessionOrganizationSchema),
  account: z.object({
    organization: organizationSummary,
    user: organizationUser,
    permissions: z.array(z.string()),
    expires_at: z.string(),
  }),
  expires_at: z.string(),
  organization: organizationSummary,
  user: organizationUser,
  permissions: z.array(z.string()),
  gateway_url: z.string().describe("The gateway's public base URL (`DASHBOARD_GATEWAY_PUBLIC_URL`): where applications call `/v1` with an API key"),
  object: z.literal("auth.session"),
});

/** The `auth.session` object. */
export type AuthSession = z.infer<typeof authSessionSchema>;

/** One membership, as needed for the session object. */
export interface MembershipSummary {
  organization: { id: string; name: string; slug: string; authenticationRequired: string };
  role: string;
}

/** Input of {@link buildAuthSession}. */
export interface BuildAuthSessionInput {
  user: { id: string; email: string; name: string };
  memberships: MembershipSummary[];
  organization: { id: string; name: string; slug: string };
  role: Role;
  permissions: readonly string[];
  /** Projects the user is assigned to. */
  projectIds: readonly string[];
  /** Owners and admins: every project of the organization (never enumerated). */
  allProjects: boolean;
  expiresAt: Date;
  /** The gateway's public base URL (the `DASHBOARD_GATEWAY_PUBLIC_URL` setting). */
  gatewayUrl: string;
}

/** Renders a membership as an entry of `organizations`. */
export function presentSessionOrganization(userId: string, membership: MembershipSummary): z.infer<typeof sessionOrganizationSchema> {
  return {
    id: membership.organization.id,
    name: membership.organization.name,
    slug: membership.organization.slug,
    user_id: userId,
    role: membership.role,
    authentication_required: membership.organization.authenticationRequired === "sso" ? "sso" : "password",
  };
}

/**
 * Builds the `auth.session` object. `user.id` and `organizations[].user_id` are the account's
 * id (the same person in every organization; the role differs per organization).
 */
export function buildAuthSession(input: BuildAuthSessionInput): AuthSession {
  const organization = { id: input.organization.id, name: input.organization.name, slug: input.organization.slug, object: "organization" as const };
  const user = {
    id: input.user.id,
    organization_id: input.organization.id,
    email: input.user.email,
    name: input.user.name,
    role: input.role,
    role_label: roleLabels[input.role],
    project_ids: [...input.projectIds],
    all_projects: input.allProjects,
    object: "organization.user" as const,
  };
  const permissions = [...input.permissions];
  const expiresAt = input.expiresAt.toISOString();
  return {
    person: { id: input.user.id, email: input.user.email, name: input.user.name },
    organizations: input.memberships.map((membership) => presentSessionOrganization(input.user.id, membership)),
    account: { organization, user, permissions, expires_at: expiresAt },
    expires_at: expiresAt,
    organization,
    user,
    permissions,
    gateway_url: input.gatewayUrl,
    object: "auth.session",
  };
}
