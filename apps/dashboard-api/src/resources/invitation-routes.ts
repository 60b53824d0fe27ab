import {
  INVITATION_DELIVERY_FAILURES,
  acceptInvitation,
  createInvitation,
  createUser,
  findInvitationByTokenHash,
  findUserByEmail,
  generateToken,
  getInvitation,
  getOrganization,
  hashPassword,
  hashToken,
  listInvitations,
  recordInvitationDelivery,
  renewInvitation,
  revokeInvitation,
  updateUser,
  verifyPassword,
  type InvitationRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { roles } from "../auth/role-permissions.js";
import { idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { listObjectSchema, pageOf, paginationQueryShape } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { recordAuditEvent } from "../services/record-audit-event.js";
import { auditChange, found } from "./resource-helpers.js";

const invitationStatuses = ["pending", "accepted", "revoked", "expired"] as const;

/** The `organization.invitation` object. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(roles),
  project_ids: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  expires_at: timestamp,
  email_sent_at: timestamp.nullable().describe("When the last email was accepted by the mail server; null if never"),
  delivery_status: z
    .enum(["sent", "failed", "expired"])
    .nullable()
    .describe(
      "`sent`: the mail server accepted the last email; `failed`: it was not delivered (see `delivery_failure`); " +
        "`expired`: the invitation expired unaccepted; null before any attempt",
    ),
  delivery_failure: z
    .enum(INVITATION_DELIVERY_FAILURES)
    .nullable()
    .describe(
      "Why the last email was not delivered (only while `delivery_status` is `failed`): `no_mail_transport` (SMTP_URL is not " +
        "set: nobody was emailed; share the `accept_url` of the create or resend answer), `recipient_rejected`, `smtp_failed`",
    ),
  status: z.enum(invitationStatuses),
  accepted_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
  object: z.literal("organization.invitation"),
});

/** Renders an invitation (status and delivery status as `@gateway/db` derived them when reading it). */
export function presentInvitation(row: InvitationRecord): z.infer<typeof invitationSchema> {
  return {
    id: row.id,
    email: row.email,
    role: row.role as (typeof roles)[number],
    project_ids: row.projectIds,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    expires_at: iso(row.expiresAt),
    email_sent_at: iso(row.emailSentAt),
    delivery_status: row.deliveryStatus,
    delivery_failure: row.deliveryFailure,
    status: row.status,
    accepted_at: iso(row.acceptedAt),
    revoked_at: iso(row.revokedAt),
    object: "organization.invitation",
  };
}

/**
 * The answer to creating or resending an invitation: the invitation and its accept link. Only
 * these answers carry the link (its token is stored hashed), and only owners and admins
 * (`invitations:write`) get them; members and viewers list invitations without it.
 */
export const invitationWithLinkSchema = invitationSchema.extend({
  accept_url: z
    .string()
    .describe(
      "The link that accepts this invitation (its token), for the inviter to copy when no email went out. Shown only in this " +
        "answer; a resend issues a new one and the old link stops working.",
    ),
});

const createBody = z.object({
  email: z.email().max(320),
  role: z.enum(roles).default("member"),
  project_ids: z.array(resourceId).max(1000).default([]),
});
const listQuery = z.object({
  ...paginationQueryShape,
  status: z.enum(invitationStatuses).optional().describe("pending, accepted, revoked or expired"),
  delivery_status: z.enum(["sent", "failed", "expired"]).optional(),
  email: z.string().max(320).optional().describe("Exact email (case-insensitive)"),
  role: z.enum(roles).optional(),
});
const params = idParams("invitation_id");
const acceptBody = z.object({
  token: z.string().min(10).max(200),
  name: z.string().trim().min(1).max(200).optional().describe("Required when the email has no account yet"),
  password: z.string().min(8).max(1024).describe("New account: its password. Existing account: its current password."),
});
const acceptanceSchema = z.object({
  invitation: invitationSchema,
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  organization: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  account_created: z.boolean(),
  object: z.literal("organization.invitation.acceptance"),
});

/** Invitation routes: `/api/invitations` and the public `POST /v1/auth/invitations/accept`. */
export function createInvitationRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getInvitation(services.database, organizationId, id, services.now()).then((row) => found(row, "Invitation"));

  /** A new token (only its hash is stored) and expiry. */
  function issueToken() {
    return { token: generateToken("inv_"), expiresAt: new Date(services.now().getTime() + services.settings.invitationTtlHours * 3_600_000) };
  }

  /** Sends the invitation email with the token and records what happened; answers the row and the accept link. */
  async function send(row: InvitationRecord, token: string, organizationName: string, inviterName: string) {
    const expiresAt = row.expiresAt;
    const link = acceptUrl(token);
    const outcome = await services.mailer.send({
      to: row.email,
      subject: `You are invited to ${organizationName} on the AI Gateway`,
      text:
        `${inviterName} invited you to join ${organizationName} as ${row.role}.\n\n` +
        `Accept the invitation: ${link}\n\n` +
        `API: POST ${services.settings.publicUrl}/v1/auth/invitations/accept with {"token":"${token}","password":"..."}\n\n` +
        `The invitation expires at ${expiresAt.toISOString()}.`,
    });
    const recorded = await recordInvitationDelivery(services.database, row.organizationId, row.id, {
      status: outcome.delivered ? "sent" : "failed",
      ...(outcome.reason === null ? {} : { failure: outcome.reason }),
      at: services.now(),
    });
    return { row: recorded, link };
  }

  /** The web app's accept page for a token. */
  function acceptUrl(token: string): string {
    return `${services.settings.publicUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
  }

  return [
    defineRoute({
      method: "post",
      path: "/api/invitations",
      operationId: "create_invitation",
      summary: "Invite someone by email",
      description:
        "Creates the invitation and sends the email at once: `delivery_status` is `sent` only once the SMTP server " +
        "accepted it. Without `SMTP_URL` no email goes out (`failed`, `delivery_failure: no_mail_transport`). The answer " +
        "carries `accept_url` for the inviter to share (only here and in the resend answer). Only owners invite owners. " +
        "409 when the email is already a member or has a pending invitation.",
      tag: "Invitations",
      access: "invitations:write",
      body: createBody,
      exampleBody: { email: "grace@example.com", role: "member", project_ids: [] },
      responses: [{ status: 201, description: "The invitation and its accept link", schema: invitationWithLinkSchema }],
      async handler(context) {
        const { principal, body } = context;
        const organizationId = principal.organization.id;
        if (body.role === "owner" && principal.role !== "owner") {
          throw new GatewayError("permission_denied", { message: "Only owners may invite owners.", param: "role" });
        }
        const { token, expiresAt } = issueToken();
        const created = await createInvitation(services.database, {
          organizationId,
          email: body.email,
          role: body.role,
          projectIds: body.project_ids,
          tokenHash: hashToken(token),
          expiresAt,
          invitedByUserId: principal.userId,
          now: services.now(),
        });
        const { row, link } = await send(created, token, principal.organization.name, principal.name || principal.email);
        const after = presentInvitation(row);
        // The audit trail never holds the link (its token is a credential).
        await auditChange(services, context, { action: "invitation.created", targetType: "invitation", targetId: row.id, after });
        return { status: 201, body: { ...after, accept_url: link } };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/invitations",
      operationId: "list_invitations",
      summary: "List invitations",
      description: "Newest first. Filters: `status`, `delivery_status`, `email`, `role`. Cursor pagination: pass `next_cursor` as `cursor`.",
      tag: "Invitations",
      access: "invitations:read",
      query: listQuery,
      responses: [{ status: 200, description: "The invitation list", schema: listObjectSchema(invitationSchema) }],
      async handler({ principal, query }) {
        const page = await listInvitations(services.database, {
          organizationId: principal.organization.id,
          ...(query.status ? { state: query.status } : {}),
          ...(query.delivery_status ? { deliveryStatus: query.delivery_status } : {}),
          ...(query.email ? { email: query.email } : {}),
          ...(query.role ? { role: query.role } : {}),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
          now: services.now(),
        });
        return { status: 200, body: pageOf(page, presentInvitation) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/invitations/{invitation_id}",
      operationId: "get_invitation",
      summary: "Get an invitation",
      tag: "Invitations",
      access: "invitations:read",
      params,
      responses: [{ status: 200, description: "The invitation", schema: invitationSchema }],
      async handler({ principal, params: { invitation_id } }) {
        return { status: 200, body: presentInvitation(await load(principal.organization.id, invitation_id)) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/invitations/{invitation_id}/resend",
      operationId: "resend_invitation",
      summary: "Resend an invitation",
      description:
        "Issues a new token (the old link stops working), renews `expires_at` and sends the email again; `delivery_status` " +
        "and `delivery_failure` tell what happened this time, and `accept_url` is the new link. Refused with " +
        "409 `conflict` for accepted or revoked invitations; at most 3 resends per invitation per hour " +
        "(429 `too_many_attempts` with `Retry-After`). Expired invitations may be resent.",
      tag: "Invitations",
      access: "invitations:write",
      params,
      responses: [{ status: 200, description: "The invitation and its new accept link", schema: invitationWithLinkSchema }],
      async handler(context) {
        const { principal, params: { invitation_id } } = context;
        const existing = await load(principal.organization.id, invitation_id);
        const limiterKey = `resend:${existing.id}`;
        const wait = services.resendLimiter.retryAfterSeconds(limiterKey);
        // Accepted and revoked invitations answer renewInvitation's 409 even when throttled.
        if (wait > 0 && existing.acceptedAt === null && existing.revokedAt === null) {
          throw new GatewayError("too_many_attempts", { message: "This invitation was resent too often; try again later.", retryAfter: wait });
        }
        const before = presentInvitation(existing);
        const { token, expiresAt } = issueToken();
        const renewed = await renewInvitation(services.database, existing.organizationId, existing.id, { tokenHash: hashToken(token), expiresAt, now: services.now() });
        services.resendLimiter.hit(limiterKey);
        const { row, link } = await send(renewed, token, principal.organization.name, principal.name || principal.email);
        const after = presentInvitation(row);
        await auditChange(services, context, { action: "invitation.resent", targetType: "invitation", targetId: row.id, before, after });
        return { status: 200, body: { ...after, accept_url: link } };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/invitations/{invitation_id}",
      operationId: "revoke_invitation",
      summary: "Revoke an invitation",
      description: "The link stops working; the record stays (status `revoked`). Accepted invitations cannot be revoked (409).",
      tag: "Invitations",
      access: "invitations:write",
      params,
      responses: [{ status: 200, description: "The revoked invitation", schema: invitationSchema }],
      async handler(context) {
        const { principal, params: { invitation_id } } = context;
        const existing = await load(principal.organization.id, invitation_id);
        if (existing.revokedAt !== null) return { status: 200, body: presentInvitation(existing) };
        const row = await revokeInvitation(services.database, existing.organizationId, existing.id, services.now());
        const after = presentInvitation(row);
        await auditChange(services, context, { action: "invitation.revoked", targetType: "invitation", targetId: row.id, before: presentInvitation(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/auth/invitations/accept",
      operationId: "accept_invitation",
      summary: "Accept an invitation",
      description:
        "Public (the token is the credential). Without an account for the invited email, creates it with `name` and " +
        "`password`; with one, `password` must be that account's password. Adds the membership with the invited role " +
        "and projects. Unknown, expired, revoked or used tokens answer 404. Then log in with `POST /v1/auth/login`.",
      tag: "Invitations",
      access: "public",
      body: acceptBody,
      exampleBody: { token: "inv_example-token", name: "Grace Hopper", password: "a long passphrase" },
      responses: [{ status: 200, description: "Accepted", schema: acceptanceSchema }],
      async handler({ request, requestId, body }) {
        const now = services.now();
        const tokenHash = hashToken(body.token);
        const invitation = await findInvitationByTokenHash(services.database, tokenHash, now);
        if (invitation === null || invitation.status !== "pending") {
          throw new GatewayError("not_found", { message: "The invitation does not exist, expired, was revoked or was already used." });
        }
        let user = await findUserByEmail(services.database, invitation.email);
        const accountCreated = user === null;
        if (user === null) {
          if (!body.name) throw new GatewayError("invalid_request", { message: "name is required to create the account.", param: "name" });
          user = await createUser(services.database, { email: invitation.email, name: body.name, passwordHash: await hashPassword(body.password) });
        } else if (user.passwordHash === null) {
          await updateUser(services.database, user.id, { passwordHash: await hashPassword(body.password), ...(body.name ? { name: body.name } : {}) });
        } else if (!(await verifyPassword(body.password, user.passwordHash))) {
          throw new GatewayError("invalid_credentials", { message: "An account exists for this email; give its current password to accept." });
        }
        let accepted: InvitationRecord;
        try {
          accepted = await acceptInvitation(services.database, { tokenHash, userId: user.id, now });
        } catch (error) {
          // Accepted, revoked or expired in the meantime: the link is as dead as an unknown one.
          if (GatewayError.isInstance(error) && (error.code === "conflict" || error.code === "not_found")) {
            throw new GatewayError("not_found", { message: "The invitation was already used." });
          }
          throw error;
        }
        const organization = found(await getOrganization(services.database, invitation.organizationId), "Organization");
        await recordAuditEvent(services, { request, requestId }, {
          organizationId: invitation.organizationId,
          actorId: user.id,
          action: "invitation.accepted",
          targetType: "invitation",
          targetId: invitation.id,
          after: { user_id: user.id, role: invitation.role, account_created: accountCreated },
        });
        return {
          status: 200,
          body: {
            invitation: presentInvitation(accepted),
            user: { id: user.id, email: user.email, name: user.name },
            organization: { id: organization.id, name: organization.name, slug: organization.slug },
            account_created: accountCreated,
            object: "organization.invitation.acceptance",
          },
        };
      },
    }),
  ];
}
