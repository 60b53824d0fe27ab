import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { INVITATION_DELIVERY_STATUSES, MEMBERSHIP_ROLES } from "./enums.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { afterTimeCursor, decodeTimeCursor, normalizeEmail, pageSize, requireOneOf, toPage, translateWrite, type Page } from "./repository-support.js";

export type InvitationDeliveryStatus = (typeof INVITATION_DELIVERY_STATUSES)[number];

export interface InvitationRecord {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  projectIds: string[];
  invitedByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  emailSentAt: Date | null;
  /** Stored status; an unaccepted invitation past `expiresAt` reads as "expired". */
  deliveryStatus: InvitationDeliveryStatus | null;
  sendCount: number;
  acceptedAt: Date | null;
  acceptedByUserId: string | null;
  revokedAt: Date | null;
}

type InvitationRow = Awaited<ReturnType<DatabaseClient["prisma"]["invitation"]["findFirstOrThrow"]>>;

function toRecord(row: InvitationRow, now = new Date()): InvitationRecord {
  const { tokenHash: _tokenHash, emailNormalized: _emailNormalized, ...rest } = row;
  const stored = row.deliveryStatus === null ? null : requireOneOf(INVITATION_DELIVERY_STATUSES, row.deliveryStatus, "delivery_status");
  return {
    ...rest,
    projectIds: parseJsonColumn(stringArraySchema, row.projectIds, `invitations ${row.id} project_ids`),
    deliveryStatus: row.acceptedAt === null && row.expiresAt <= now ? "expired" : stored,
  };
}

/** Creates an invitation (store `hashToken(token)`; the token goes only into the email). */
export async function createInvitation(
  db: DatabaseClient,
  input: { organizationId: string; email: string; role: string; projectIds?: string[]; tokenHash: string; expiresAt: Date; invitedByUserId?: string | null },
): Promise<InvitationRecord> {
  const role = requireOneOf(MEMBERSHIP_ROLES, input.role, "role");
  const projectIds = [...new Set(input.projectIds ?? [])];
  if (projectIds.length > 0) {
    const found = await db.prisma.project.count({ where: { id: { in: projectIds }, organizationId: input.organizationId } });
    if (found !== projectIds.length) throw new GatewayError("invalid_request", { message: "project_ids contains an unknown project", param: "project_ids" });
  }
  return toRecord(
    await translateWrite("invitation", () =>
      db.prisma.invitation.create({
        data: {
          organizationId: input.organizationId,
          email: input.email.trim(),
          emailNormalized: normalizeEmail(input.email),
          role,
          projectIds,
          tokenHash: input.tokenHash,
          expiresAt: input.expiresAt,
          invitedByUserId: input.invitedByUserId ?? null,
        },
      }),
    ),
  );
}

/** Filters of `listInvitations`. `state` is derived: pending = not accepted, not revoked, not expired. */
export interface ListInvitationsOptions {
  organizationId: string;
  state?: "pending" | "accepted" | "revoked" | "expired";
  email?: string;
  limit?: number;
  cursor?: string;
  now?: Date;
}

/** Invitations newest first, cursor-paginated. */
export async function listInvitations(db: DatabaseClient, options: ListInvitationsOptions): Promise<Page<InvitationRecord>> {
  const now = options.now ?? new Date();
  const limit = pageSize(options.limit);
  const where: Record<string, unknown>[] = [{ organizationId: options.organizationId }];
  if (options.email) where.push({ emailNormalized: normalizeEmail(options.email) });
  if (options.state === "pending") where.push({ acceptedAt: null, revokedAt: null, expiresAt: { gt: now } });
  if (options.state === "accepted") where.push({ acceptedAt: { not: null } });
  if (options.state === "revoked") where.push({ revokedAt: { not: null } });
  if (options.state === "expired") where.push({ acceptedAt: null, revokedAt: null, expiresAt: { lte: now } });
  if (options.cursor) where.push(afterTimeCursor("createdAt", decodeTimeCursor(options.cursor)));
  const rows = await db.prisma.invitation.findMany({ where: { AND: where }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const page = toPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
  return { data: page.data.map((row) => toRecord(row, now)), nextCursor: page.nextCursor };
}

export async function getInvitation(db: DatabaseClient, organizationId: string, id: string): Promise<InvitationRecord | null> {
  const row = await db.prisma.invitation.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

/** The invitation for an acceptance link (any organization), or null. */
export async function findInvitationByTokenHash(db: DatabaseClient, tokenHash: string): Promise<InvitationRecord | null> {
  const row = await db.prisma.invitation.findUnique({ where: { tokenHash } });
  return row ? toRecord(row) : null;
}

/** Records what really happened to an email: "sent" sets `emailSentAt`; "failed" keeps the previous time. */
export async function recordInvitationDelivery(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  input: { status: "sent" | "failed"; at?: Date },
): Promise<InvitationRecord> {
  const at = input.at ?? new Date();
  return toRecord(
    await translateWrite("invitation", () =>
      db.prisma.invitation.update({
        where: { id, organizationId },
        data: { deliveryStatus: input.status, sendCount: { increment: 1 }, ...(input.status === "sent" ? { emailSentAt: at } : {}) },
      }),
    ),
  );
}

/** Resend: renews the token and expiry. 409 for accepted or revoked invitations, 404 when missing. */
export async function renewInvitation(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  input: { tokenHash: string; expiresAt: Date },
): Promise<InvitationRecord> {
  const result = await db.prisma.invitation.updateMany({
    where: { id, organizationId, acceptedAt: null, revokedAt: null },
    data: { tokenHash: input.tokenHash, expiresAt: input.expiresAt },
  });
  const row = await db.prisma.invitation.findFirst({ where: { id, organizationId } });
  if (!row) throw new GatewayError("not_found", { message: "invitation not found" });
  if (result.count === 0) throw new GatewayError("conflict", { message: row.acceptedAt ? "the invitation was already accepted" : "the invitation was revoked" });
  return toRecord(row);
}

/** Revokes a pending invitation (idempotent). 404 when missing, 409 when already accepted. */
export async function revokeInvitation(db: DatabaseClient, organizationId: string, id: string, now = new Date()): Promise<InvitationRecord> {
  await db.prisma.invitation.updateMany({ where: { id, organizationId, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
  const row = await db.prisma.invitation.findFirst({ where: { id, organizationId } });
  if (!row) throw new GatewayError("not_found", { message: "invitation not found" });
  if (row.acceptedAt) throw new GatewayError("conflict", { message: "the invitation was already accepted" });
  return toRecord(row);
}

/**
 * Accepts an invitation for `userId` (the caller creates the account first when needed): in
 * one transaction marks it accepted, adds the membership with the invited role (it replaces the
 * role of an existing membership) and the project memberships. 404 unknown, 409
 * accepted/revoked/expired. Safe against double acceptance (conditional update).
 */
export async function acceptInvitation(db: DatabaseClient, input: { tokenHash: string; userId: string; now?: Date }): Promise<InvitationRecord> {
  const now = input.now ?? new Date();
  return db.prisma.$transaction(async (transaction) => {
    const claimed = await transaction.invitation.updateMany({
      where: { tokenHash: input.tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now, acceptedByUserId: input.userId },
    });
    const row = await transaction.invitation.findUnique({ where: { tokenHash: input.tokenHash } });
    if (!row) throw new GatewayError("not_found", { message: "invitation not found" });
    if (claimed.count === 0) {
      const reason = row.acceptedAt ? "was already accepted" : row.revokedAt ? "was revoked" : "has expired";
      throw new GatewayError("conflict", { message: `the invitation ${reason}` });
    }
    await transaction.membership.upsert({
      where: { organizationId_userId: { organizationId: row.organizationId, userId: input.userId } },
      create: { organizationId: row.organizationId, userId: input.userId, role: row.role },
      update: { role: row.role },
    });
    const projectIds = parseJsonColumn(stringArraySchema, row.projectIds, `invitations ${row.id} project_ids`);
    const existingProjects = await transaction.project.findMany({ where: { id: { in: projectIds }, organizationId: row.organizationId }, select: { id: true } });
    for (const project of existingProjects) {
      await transaction.projectMember.upsert({
        where: { projectId_userId: { projectId: project.id, userId: input.userId } },
        create: { projectId: project.id, userId: input.userId },
        update: {},
      });
    }
    return toRecord(row, now);
  });
}
