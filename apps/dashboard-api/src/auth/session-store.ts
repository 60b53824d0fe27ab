import type { Request } from "express";
import {
  createLoginSession as storeLoginSession,
  findSessionPrincipal,
  generateSessionId,
  getUser,
  hashToken,
  listProjectIdsOfUser,
  listUserMemberships,
  touchSessionLastSeen,
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
 * The most powerful of a membership's role and the user's team roles in that organization (a
 * team member's own team role, else the team's default); undefined when none is a known role.
 */
export function effectiveRole(membershipRole: string, teamRoles: readonly string[]): Role | undefined {
  let best: Role | undefined;
  for (const candidate of [membershipRole, ...teamRoles]) {
    if (!isRole(candidate)) continue;
    if (best === undefined || roles.indexOf(candidate) < roles.indexOf(best)) best = candidate;
  }
  return best;
}

/**
 * Resolves the `gateway_session` cookie to the signed-in user. Null when the cookie is absent
 * or unknown, the session expired or was revoked, the account is disabled, or the membership
 * of the session's organization no longer exists. The role is read fresh on every request,
 * so a role change or removal takes effect at once. One statement whatever the number of
 * projects (owners and admins act on every project without listing them, `allProjects`).
 */
export async function resolvePrincipal(services: DashboardServices, request: Request): Promise<DashboardPrincipal | null> {
  const cookieValue = readCookie(request, sessionCookieName);
  if (cookieValue === undefined || cookieValue === "" || cookieValue.length > 512) return null;
  const now = services.now();
  const sessionHash = hashToken(cookieValue);
  const session = await findSessionPrincipal(services.database, sessionHash, now);
  if (session === null) return null;
  const role = effectiveRole(session.membershipRole, session.teamRoles);
  if (role === undefined) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > lastSeenResolutionMs) {
    await touchSessionLastSeen(services.database, session.sessionId, now).catch(() => undefined);
  }
  return {
    sessionId: session.sessionId,
    sessionHash,
    userId: session.userId,
    email: session.email,
    name: session.name,
    organization: session.organization,
    role,
    permissions: new Set(permissionsForRole(role)),
    projectIds: session.projectIds,
    allProjects: rolesWithAllProjects.includes(role),
    expiresAt: session.expiresAt,
  };
}

/** Builds the `auth.session` object of the signed-in principal (one statement: the memberships). */
export async function authSessionOf(services: DashboardServices, principal: DashboardPrincipal): Promise<AuthSession> {
  const memberships = await listUserMemberships(services.database, principal.userId);
  return buildAuthSession({
    user: { id: principal.userId, email: principal.email, name: principal.name },
    memberships: memberships.map((membership) => ({ organization: membership.organization, role: effectiveRole(membership.membershipRole, membership.teamRoles) ?? membership.membershipRole })),
    organization: principal.organization,
    role: principal.role,
    permissions: [...principal.permissions],
    projectIds: principal.projectIds,
    allProjects: principal.allProjects,
    expiresAt: principal.expiresAt,
    gatewayUrl: services.settings.gatewayPublicUrl,
  });
}

/** Builds the `auth.session` object for a user in one organization (after a login). */
export async function loadAuthSession(
  services: DashboardServices,
  input: { userId: string; organizationId: string; expiresAt: Date },
): Promise<AuthSession> {
  const user = await getUser(services.database, input.userId);
  if (user === null) throw new Error("The session's account is gone.");
  const memberships = await listUserMemberships(services.database, user.id);
  const current = memberships.find((membership) => membership.organization.id === input.organizationId);
  const role = current === undefined ? undefined : effectiveRole(current.membershipRole, current.teamRoles);
  if (current === undefined || role === undefined) throw new Error("The session's membership is gone.");
  return buildAuthSession({
    user: { id: user.id, email: user.email, name: user.name },
    memberships: memberships.map((membership) => ({ organization: membership.organization, role: effectiveRole(membership.membershipRole, membership.teamRoles) ?? membership.membershipRole })),
    organization: current.organization,
    role,
    permissions: permissionsForRole(role),
    projectIds: await listProjectIdsOfUser(services.database, input.organizationId, user.id),
    allProjects: rolesWithAllProjects.includes(role),
    expiresAt: input.expiresAt,
    gatewayUrl: services.settings.gatewayPublicUrl,
  });
}
