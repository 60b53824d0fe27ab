import type { Request } from "express";
import {
  createLoginSession as storeLoginSession,
  findActiveLoginSession,
  generateSessionId,
  getMembership,
  getUser,
  hashToken,
  listMembershipsOfUser,
  listProjectIdsOfUser,
  listTeamRolesOfUser,
  touchLoginSession,
} from "@gateway/db";
import type { DashboardServices } from "../services/dashboard-services.js";
import { readCookie, sessionCookieName } from "../http/session-cookie.js";
import { clientAddressOf } from "../http/client-address.js";
import type { DashboardPrincipal } from "./dashboard-principal.js";
import { isRole, permissionsForRole, roles, rolesWithAllProjects, type Role } from "./role-permissions.js";
import { buildAuthSession, type AuthSession } from "./session-object.js";

/** How often `lastSeenAt` is refreshed at most (ms). */
const lastSeenResolutionMs = 60_000;

/** Creates a login session row and returns the cookie value (only its hash is stored). */
export async function createLoginSession(
  services: DashboardServices,
  input: { userId: string; organizationId: string; request: Request },
): Promise<{ cookieValue: string; id: string; expiresAt: Date }> {
  const cookieValue = generateSessionId();
  const expiresAt = new Date(services.now().getTime() + services.settings.sessionTtlSeconds * 1000);
  const userAgent = input.request.headers["user-agent"];
  const row = await storeLoginSession(services.database, {
    sessionHash: hashToken(cookieValue),
    userId: input.userId,
    organizationId: input.organizationId,
    userAgent: typeof userAgent === "string" ? userAgent.slice(0, 500) : null,
    ipAddress: clientAddressOf(input.request),
    expiresAt,
    lastSeenAt: services.now(),
  });
  return { cookieValue, id: row.id, expiresAt };
}

/**
 * The user's role in each organization: the most powerful of the membership role and the
 * roles of the user's teams there (a team member's own team role, else the team's default).
 */
export async function effectiveRoles(services: DashboardServices, userId: string, memberships: { organizationId: string; role: string }[]): Promise<Map<string, Role>> {
  const organizationId = memberships.length === 1 ? memberships[0]!.organizationId : undefined;
  const teamRoles = await listTeamRolesOfUser(services.database, userId, organizationId);
  const result = new Map<string, Role>();
  for (const membership of memberships) {
    const candidates = [membership.role, ...teamRoles.filter((row) => row.organizationId === membership.organizationId).map((row) => row.role)];
    const valid = candidates.filter(isRole);
    if (valid.length === 0) continue;
    result.set(membership.organizationId, valid.reduce((best, role) => (roles.indexOf(role) < roles.indexOf(best) ? role : best)));
  }
  return result;
}

/**
 * The projects a user is assigned to. Owners and admins act on every project of the organization
 * whatever this holds (`allProjects`): their access is never an enumeration of the projects, so
 * resolving them costs the same at 10 projects or 10,000.
 */
export async function projectIdsFor(services: DashboardServices, input: { userId: string; organizationId: string }): Promise<string[]> {
  return listProjectIdsOfUser(services.database, input.organizationId, input.userId);
}

/**
 * Resolves the `gateway_session` cookie to the signed-in user. Null when the cookie is absent
 * or unknown, the session expired or was revoked, the account is disabled, or the membership
 * of the session's organization no longer exists. The role is read fresh on every request,
 * so a role change or removal takes effect at once.
 */
export async function resolvePrincipal(services: DashboardServices, request: Request): Promise<DashboardPrincipal | null> {
  const cookieValue = readCookie(request, sessionCookieName);
  if (cookieValue === undefined || cookieValue === "" || cookieValue.length > 512) return null;
  const now = services.now();
  const sessionHash = hashToken(cookieValue);
  const session = await findActiveLoginSession(services.database, sessionHash, now);
  if (session === null) return null;
  if (session.user.disabledAt !== null || session.organization === null || session.organizationId === null) return null;
  const membership = await getMembership(services.database, session.organizationId, session.userId);
  if (membership === null) return null;
  const role = (await effectiveRoles(services, session.userId, [membership])).get(membership.organizationId);
  if (role === undefined) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > lastSeenResolutionMs) {
    await touchLoginSession(services.database, session.id, { lastSeenAt: now }).catch(() => undefined);
  }
  return {
    sessionId: session.id,
    sessionHash,
    userId: session.userId,
    email: session.user.email,
    name: session.user.name,
    organization: { id: session.organization.id, name: session.organization.name, slug: session.organization.slug },
    role,
    permissions: new Set(permissionsForRole(role)),
    projectIds: await projectIdsFor(services, { userId: session.userId, organizationId: session.organizationId }),
    allProjects: rolesWithAllProjects.includes(role),
    expiresAt: session.expiresAt,
  };
}

/** Builds the `auth.session` object for a user in one organization. */
export async function loadAuthSession(
  services: DashboardServices,
  input: { userId: string; organizationId: string; expiresAt: Date },
): Promise<AuthSession> {
  const user = await getUser(services.database, input.userId);
  if (user === null) throw new Error("The session's account is gone.");
  const memberships = await listMembershipsOfUser(services.database, user.id);
  const current = memberships.find((membership) => membership.organizationId === input.organizationId);
  const rolesByOrganization = await effectiveRoles(services, user.id, memberships);
  const role = rolesByOrganization.get(input.organizationId);
  if (current === undefined || role === undefined) throw new Error("The session's membership is gone.");
  return buildAuthSession({
    user: { id: user.id, email: user.email, name: user.name },
    memberships: memberships.map((membership) => ({ organization: membership.organization, role: rolesByOrganization.get(membership.organizationId) ?? membership.role })),
    organization: current.organization,
    role,
    permissions: permissionsForRole(role),
    projectIds: await projectIdsFor(services, { userId: user.id, organizationId: input.organizationId }),
    allProjects: rolesWithAllProjects.includes(role),
    expiresAt: input.expiresAt,
    gatewayUrl: services.settings.gatewayPublicUrl,
  });
}
