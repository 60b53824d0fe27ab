import { generateToken, hashPassword, hashToken, verifyPassword } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { normalizeEmail } from "../auth/auth-routes.js";
import { roles } from "../auth/role-permissions.js";
import { idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { afterCursorWhere, listObjectSchema, paginationQueryShape, toListPage } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { recordAuditEvent } from "../services/record-audit-event.js";
import { auditChange, found, stringArray } from "./resource-helpers.js";

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
    .describe("`sent`/`failed`: outcome of the last email; `expired`: the invitation expired unaccepted; null before any attempt"),
  status: z.enum(invitationStatuses),
  accepted_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
  object: z.literal("organization.invitation"),
});

interface InvitationRow {
  id: string;
  email: string;
  role: string;
  projectIds: unknown;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  emailSentAt: Date | null;
  deliveryStatus: string | null;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

function statusOf(row: InvitationRow, now: Date): (typeof invitationStatuses)[number] {
  if (row.acceptedAt !== null) return "accepted";
  if (row.revokedAt !== null) return "revoked";
  if (row.expiresAt <= now) return "expired";
  return "pending";
}

/** Renders an invitation row; an unaccepted invitation past its expiry shows `delivery_status: expired`. */
export function presentInvitation(row: InvitationRow, now: Date): z.infer<typeof invitationSchema> {
  const status = statusOf(row, now);
  const deliveryStatus = status === "expired" ? "expired" : row.deliveryStatus === "sent" || row.deliveryStatus === "failed" ? row.deliveryStatus : null;
  return {
    id: row.id,
    email: row.email,
    role: row.role as (typeof roles)[number],
    project_ids: stringArray(row.projectIds),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    expires_at: iso(row.expiresAt),
    email_sent_at: iso(row.emailSentAt),
    delivery_status: deliveryStatus,
    status,
    accepted_at: iso(row.acceptedAt),
    revoked_at: iso(row.revokedAt),
    object: "organization.invitation",
  };
}

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
  const load = (organizationId: string, id: string) =>
    services.prisma.invitation.findFirst({ where: { id, organizationId } }).then((row) => found(row, "Invitation"));

  /** Issues a new token and expiry, sends the email and records what happened. */
  async function issueAndSend(invitationId: string, organizationName: string, inviterName: string) {
    const token = generateToken("inv_");
    const expiresAt = new Date(services.now().getTime() + services.settings.invitationTtlHours * 3_600_000);
    const row = await services.prisma.invitation.update({
      where: { id: invitationId },
      data: { tokenHash: hashToken(token), expiresAt, sendCount: { increment: 1 } },
    });
    const link = `${services.settings.publicUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
    const outcome = await services.mailer.send({
      to: row.email,
      subject: `You are invited to ${organizationName} on the AI Gateway`,
      text:
        `${inviterName} invited you to join ${organizationName} as ${row.role}.\n\n` +
        `Accept the invitation: ${link}\n\n` +
        `API: POST ${services.settings.publicUrl}/v1/auth/invitations/accept with {"token":"${token}","password":"..."}\n\n` +
        `The invitation expires at ${expiresAt.toISOString()}.`,
    });
    return services.prisma.invitation.update({
      where: { id: invitationId },
      data: outcome.delivered ? { deliveryStatus: "sent", emailSentAt: services.now() } : { deliveryStatus: "failed" },
    });
  }

  return [
    defineRoute({
      method: "post",
      path: "/api/invitations",
      operationId: "create_invitation",
      summary: "Invite someone by email",
      description:
        "Creates the invitation and sends the email at once (SMTP when `SMTP_URL` is set, else the logged outbox); " +
        "`delivery_status` and `email_sent_at` tell what happened. Only owners invite owners. 409 when the email is " +
        "already a member or has a pending invitation.",
      tag: "Invitations",
      access: "invitations:write",
      body: createBody,
      exampleBody: { email: "grace@example.com", role: "member", project_ids: [] },
      responses: [{ status: 201, description: "The invitation", schema: invitationSchema }],
      async handler(context) {
        const { principal, body } = context;
        const organizationId = principal.organization.id;
        if (body.role === "owner" && principal.role !== "owner") {
          throw new GatewayError("permission_denied", { message: "Only owners may invite owners.", param: "role" });
        }
        const emailNormalized = normalizeEmail(body.email);
        const member = await services.prisma.membership.count({ where: { organizationId, user: { emailNormalized } } });
        if (member > 0) throw new GatewayError("conflict", { message: "This person is already a member.", param: "email" });
        const pending = await services.prisma.invitation.findFirst({
          where: { organizationId, emailNormalized, acceptedAt: null, revokedAt: null, expiresAt: { gt: services.now() } },
        });
        if (pending !== null) {
          throw new GatewayError("conflict", { message: "A pending invitation exists for this email; resend it instead.", param: "email", details: { invitation_id: pending.id } });
        }
        const projectIds = [...new Set(body.project_ids)];
        if ((await services.prisma.project.count({ where: { organizationId, id: { in: projectIds } } })) !== projectIds.length) {
          throw new GatewayError("invalid_request", { message: "project_ids names a project of another organization or none.", param: "project_ids" });
        }
        const created = await services.prisma.invitation.create({
          data: {
            organizationId,
            email: body.email.trim(),
            emailNormalized,
            role: body.role,
            projectIds,
            tokenHash: hashToken(generateToken("inv_")),
            invitedByUserId: principal.userId,
            expiresAt: services.now(),
          },
        });
        const row = await issueAndSend(created.id, principal.organization.name, principal.name || principal.email);
        const after = presentInvitation(row, services.now());
        await auditChange(services, context, { action: "invitation.created", targetType: "invitation", targetId: row.id, after });
        return { status: 201, body: after };
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
        const now = services.now();
        const statusWhere: Record<string, unknown> =
          query.status === "accepted"
            ? { acceptedAt: { not: null } }
            : query.status === "revoked"
              ? { acceptedAt: null, revokedAt: { not: null } }
              : query.status === "expired"
                ? { acceptedAt: null, revokedAt: null, expiresAt: { lte: now } }
                : query.status === "pending"
                  ? { acceptedAt: null, revokedAt: null, expiresAt: { gt: now } }
                  : {};
        const deliveryWhere: Record<string, unknown> =
          query.delivery_status === "expired"
            ? { acceptedAt: null, revokedAt: null, expiresAt: { lte: now } }
            : query.delivery_status
              ? { deliveryStatus: query.delivery_status, OR: [{ acceptedAt: { not: null } }, { revokedAt: { not: null } }, { expiresAt: { gt: now } }] }
              : {};
        const rows = await services.prisma.invitation.findMany({
          where: {
            AND: [
              { organizationId: principal.organization.id },
              statusWhere,
              deliveryWhere,
              query.email ? { emailNormalized: normalizeEmail(query.email) } : {},
              query.role ? { role: query.role } : {},
              afterCursorWhere(query.cursor, "createdAt"),
            ],
          },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: query.limit + 1,
        });
        return { status: 200, body: toListPage(rows, query.limit, "createdAt", (row) => presentInvitation(row, now)) };
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
        return { status: 200, body: presentInvitation(await load(principal.organization.id, invitation_id), services.now()) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/invitations/{invitation_id}/resend",
      operationId: "resend_invitation",
      summary: "Resend an invitation",
      description:
        "Issues a new token (the old link stops working), renews `expires_at` and sends the email again. Refused with " +
        "409 `conflict` for accepted or revoked invitations; at most 3 resends per invitation per hour " +
        "(429 `too_many_attempts` with `Retry-After`). Expired invitations may be resent.",
      tag: "Invitations",
      access: "invitations:write",
      params,
      responses: [{ status: 200, description: "The invitation", schema: invitationSchema }],
      async handler(context) {
        const { principal, params: { invitation_id } } = context;
        const existing = await load(principal.organization.id, invitation_id);
        if (existing.acceptedAt !== null) throw new GatewayError("conflict", { message: "The invitation was already accepted." });
        if (existing.revokedAt !== null) throw new GatewayError("conflict", { message: "The invitation was revoked; create a new one." });
        const limiterKey = `resend:${existing.id}`;
        const wait = services.resendLimiter.retryAfterSeconds(limiterKey);
        if (wait > 0) throw new GatewayError("too_many_attempts", { message: "This invitation was resent too often; try again later.", retryAfter: wait });
        services.resendLimiter.hit(limiterKey);
        const before = presentInvitation(existing, services.now());
        const row = await issueAndSend(existing.id, principal.organization.name, principal.name || principal.email);
        const after = presentInvitation(row, services.now());
        await auditChange(services, context, { action: "invitation.resent", targetType: "invitation", targetId: row.id, before, after });
        return { status: 200, body: after };
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
        if (existing.acceptedAt !== null) throw new GatewayError("conflict", { message: "The invitation was already accepted; remove the member instead." });
        if (existing.revokedAt !== null) return { status: 200, body: presentInvitation(existing, services.now()) };
        const row = await services.prisma.invitation.update({ where: { id: existing.id }, data: { revokedAt: services.now() } });
        const after = presentInvitation(row, services.now());
        await auditChange(services, context, { action: "invitation.revoked", targetType: "invitation", targetId: row.id, before: presentInvitation(existing, services.now()), after });
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
        const invitation = await services.prisma.invitation.findUnique({ where: { tokenHash: hashToken(body.token) }, include: { organization: true } });
        if (invitation === null || statusOf(invitation, now) !== "pending") {
          throw new GatewayError("not_found", { message: "The invitation does not exist, expired, was revoked or was already used." });
        }
        let user = await services.prisma.user.findUnique({ where: { emailNormalized: invitation.emailNormalized } });
        const accountCreated = user === null;
        if (user === null) {
          if (!body.name) throw new GatewayError("invalid_request", { message: "name is required to create the account.", param: "name" });
          user = await services.prisma.user.create({
            data: { email: invitation.email, emailNormalized: invitation.emailNormalized, name: body.name, passwordHash: await hashPassword(body.password) },
          });
        } else if (user.passwordHash === null) {
          await services.prisma.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(body.password), ...(body.name ? { name: body.name } : {}) } });
        } else if (!(await verifyPassword(body.password, user.passwordHash))) {
          throw new GatewayError("invalid_credentials", { message: "An account exists for this email; give its current password to accept." });
        }
        const claimed = await services.prisma.invitation.updateMany({
          where: { id: invitation.id, acceptedAt: null, revokedAt: null },
          data: { acceptedAt: now, acceptedByUserId: user.id },
        });
        if (claimed.count === 0) throw new GatewayError("not_found", { message: "The invitation was already used." });
        const existingMembership = await services.prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: invitation.organizationId, userId: user.id } } });
        if (existingMembership === null) {
          await services.prisma.membership.create({ data: { organizationId: invitation.organizationId, userId: user.id, role: invitation.role } });
        }
        const projectIds = stringArray(invitation.projectIds);
        const existingProjects = await services.prisma.project.findMany({ where: { organizationId: invitation.organizationId, id: { in: projectIds } }, select: { id: true } });
        for (const project of existingProjects) {
          await services.prisma.projectMember.upsert({
            where: { projectId_userId: { projectId: project.id, userId: user.id } },
            create: { projectId: project.id, userId: user.id },
            update: {},
          });
        }
        const accepted = await services.prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
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
            invitation: presentInvitation(accepted, now),
            user: { id: user.id, email: user.email, name: user.name },
            organization: { id: invitation.organization.id, name: invitation.organization.name, slug: invitation.organization.slug },
            account_created: accountCreated,
            object: "organization.invitation.acceptance",
          },
        };
      },
    }),
  ];
}
