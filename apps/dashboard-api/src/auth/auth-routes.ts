import {
  dummyPasswordHash,
  findUserByEmail,
  listMembershipsOfUser,
  normalizeEmail,
  revokeLoginSession,
  updateUser,
  verifyPassword,
  type MembershipRecord,
  type OrganizationRecord,
} from "@gateway/db";
import { setTimeout as sleep } from "node:timers/promises";
import { GatewayError } from "@gateway/errors";
import type { Request } from "express";
import { z } from "zod";
import { clientAddressOf } from "../http/client-address.js";
import { isLocalhostRequest, serializeClearedSessionCookie, serializeSessionCookie } from "../http/session-cookie.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { recordAuditEvent } from "../services/record-audit-event.js";
import { authSessionSchema, presentSessionOrganization } from "./session-object.js";
import { authSessionOf, createLoginSession, loadAuthSession } from "./session-store.js";
import { ssoStartPath } from "./sso/sso-routes.js";

const loginBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
  organization_id: z.string().min(1).max(64).optional().describe("Picks the organization of an account that belongs to several."),
});

/** Whether the session cookie may go without `Secure` for this request. */
export function cookieIsSecure(services: DashboardServices, request: Request): boolean {
  return !(services.settings.insecureLocalhostCookies && isLocalhostRequest(request));
}

/** The routes under `/v1/auth`: login, session, logout. */
export function createAuthRoutes(services: DashboardServices): DashboardRoute[] {
  // Verifying against this hash when the email is unknown makes both failures cost the same.
  const getDummyHash = () => dummyPasswordHash();
  void getDummyHash().catch(() => undefined);

  const invalidCredentials = () => new GatewayError("invalid_credentials");

  return [
    defineRoute({
      method: "post",
      path: "/v1/auth/login",
      operationId: "login",
      summary: "Log in with email and password",
      description:
        "Authenticates one personal account and selects its organization. Sets the `gateway_session` cookie " +
        "(HttpOnly, Secure, SameSite=Lax, Path=/, expiring at `expires_at`). An account in several organizations gets " +
        "409 `organization_selection_required` listing them; send `organization_id` to pick one. An organization that " +
        "requires SSO answers 403 `sso_required` with `details.sso_start_url` (where a browser starts single sign-on), except for " +
        "owners named in `DASHBOARD_SSO_BREAK_GLASS_EMAILS` (audited as `auth.login_break_glass`). Wrong passwords and unknown emails both answer 401 `invalid_credentials`; " +
        "repeated failures from one client address (on one account, or on all together) answer 429 `too_many_attempts` with " +
        "`Retry-After`; failures on an account from many addresses slow its logins down (never a lock-out).",
      tag: "Authentication",
      access: "public",
      body: loginBody,
      exampleBody: { email: "ada@example.com", password: "correct horse battery staple" },
      responses: [{ status: 200, description: "The login session", schema: authSessionSchema }],
      async handler({ request, body, requestId }) {
        const email = normalizeEmail(body.email);
        const address = clientAddressOf(request);
        const wait = services.loginThrottle.retryAfterSeconds(email, address);
        if (wait > 0) {
          throw new GatewayError("too_many_attempts", { message: "Too many failed login attempts; try again later.", retryAfter: wait });
        }
        // An account under attack from other addresses is slowed down, never locked: its owner still gets in.
        const delayMs = services.loginThrottle.delayMs(email, address);
        if (delayMs > 0) await sleep(delayMs);
        const user = await findUserByEmail(services.database, email);
        const passwordMatches = await verifyPassword(body.password, user?.passwordHash ?? (await getDummyHash()));
        if (user === null || user.passwordHash === null || user.disabledAt !== null || !passwordMatches) {
          services.loginThrottle.failed(email, address);
          await recordAuditEvent(services, { request, requestId }, {
            organizationId: null,
            actorId: user?.id ?? null,
            actorKind: user ? "user" : "system",
            action: "auth.login_failed",
            targetType: "user",
            targetId: user?.id ?? null,
          });
          throw invalidCredentials();
        }
        services.loginThrottle.succeeded(email, address);
        const memberships: (MembershipRecord & { organization: OrganizationRecord })[] = await listMembershipsOfUser(services.database, user.id);
        const organizations = memberships.map((membership) => presentSessionOrganization(user.id, membership));
        if (memberships.length === 0) {
          throw new GatewayError("permission_denied", { message: "This account does not belong to any organization." });
        }
        let membership = memberships[0]!;
        if (body.organization_id !== undefined) {
          const chosen = memberships.find((candidate) => candidate.organizationId === body.organization_id);
          if (chosen === undefined) {
            throw new GatewayError("organization_selection_required", {
              message: "The account does not belong to that organization; choose one of the listed organizations.",
              param: "organization_id",
              details: { organizations },
            });
          }
          membership = chosen;
        } else if (memberships.length > 1) {
          throw new GatewayError("organization_selection_required", {
            message: "The account belongs to several organizations; repeat the login with one of them as organization_id.",
            param: "organization_id",
            details: { organizations },
          });
        }
        let breakGlass = false;
        if (membership.organization.authenticationRequired === "sso") {
          // Break-glass: owners named in DASHBOARD_SSO_BREAK_GLASS_EMAILS keep their password for an identity provider outage.
          breakGlass = membership.role === "owner" && services.settings.ssoBreakGlassEmails.includes(email);
          if (!breakGlass) {
            throw new GatewayError("sso_required", {
              message: "This organization requires single sign-on; password login is disabled.",
              details: { organization_id: membership.organizationId, sso_start_url: ssoStartPath(membership.organization.slug, user.email) },
            });
          }
        }
        const session = await createLoginSession(services, { userId: user.id, organizationId: membership.organizationId, request });
        await updateUser(services.database, user.id, { lastLoginAt: services.now() });
        await recordAuditEvent(services, { request, requestId }, {
          organizationId: membership.organizationId,
          actorId: user.id,
          action: breakGlass ? "auth.login_break_glass" : "auth.login",
          targetType: "login_session",
          targetId: session.id,
        });
        const sessionObject = await loadAuthSession(services, { userId: user.id, organizationId: membership.organizationId, expiresAt: session.expiresAt });
        return {
          status: 200,
          body: sessionObject,
          headers: {
            "set-cookie": serializeSessionCookie({
              value: session.cookieValue,
              expiresAt: session.expiresAt,
              secure: cookieIsSecure(services, request),
              now: services.now(),
            }),
            "cache-control": "no-store",
          },
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/auth/session",
      operationId: "get_session",
      summary: "The current login session",
      tag: "Authentication",
      access: "session",
      responses: [{ status: 200, description: "The login session", schema: authSessionSchema }],
      async handler({ principal }) {
        const body = await authSessionOf(services, principal);
        return { status: 200, body, headers: { "cache-control": "no-store" } };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/auth/logout",
      operationId: "logout",
      summary: "Log out",
      description: "Revokes the current session (if any) and clears the cookie. Answers 204 either way.",
      tag: "Authentication",
      access: "public",
      responses: [{ status: 204, description: "Logged out" }],
      async handler({ request, optionalPrincipal, requestId }) {
        if (optionalPrincipal !== null) {
          await revokeLoginSession(services.database, optionalPrincipal.sessionHash, services.now());
          await recordAuditEvent(services, { request, requestId }, {
            organizationId: optionalPrincipal.organization.id,
            actorId: optionalPrincipal.userId,
            action: "auth.logout",
            targetType: "login_session",
            targetId: optionalPrincipal.sessionId,
          });
        }
        return { status: 204, headers: { "set-cookie": serializeClearedSessionCookie(cookieIsSecure(services, request)) } };
      },
    }),
  ];
}
