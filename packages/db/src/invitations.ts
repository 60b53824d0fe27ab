import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { INVITATION_DELIVERY_FAILURES, INVITATION_DELIVERY_STATUSES, MEMBERSHIP_ROLES } from "./enums.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { afterTimeCursor, decodeTimeCursor, normalizeEmail, pageSize, requireOneOf, toPage, translateWrite, type Page } from "./repository-support.js";

export type InvitationDeliveryStatus = (typeof INVITATION_DELIVERY_STATUSES)[number];
export type InvitationDeliveryFailure = (typeof INVITATION_DELIVERY_FAILURES)[number];

/** Derived state: accepted wins, then revoked, then expired (past `expiresAt`), else pending. */
export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

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
  /** Outcome of the last email ("sent"/"failed"); "expired" while `status` is "expired". */
  deliveryStatus: InvitationDeliveryStatus | null;
  /** Why the last email failed (while `deliveryStatus` is "failed"), else null. */
  deliveryFailure: InvitationDeliveryFailure | null;
  /** Derived at the time of reading (see `InvitationStatus`). */
  status: InvitationStatus;
  sendCount: number;
  acceptedAt: Date | null;
  acceptedByUserId: string | null;
  revokedAt: Date | null;
}

type InvitationRow = Awaited<ReturnType<DatabaseClient["prisma"]["invitation"]["findFirstOrThrow"]>>;

function statusOf(row: InvitationRow, now: Date): InvitationStatus {
  if (row.acceptedAt !== null) return "accepted";
  if (row.revokedAt !== null) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

function toRecord(row: InvitationRow, now = new Date()): InvitationRecord {
  const { tokenHash: _tokenHash, emailNormalized: _emailNormalized, ...rest } = row;
  const status = statusOf(row, now);
  const stored = row.deliveryStatus === "sent" || row.deliveryStatus === "failed" ? row.deliveryStatus : null;
  const deliveryStatus = status === "expired" ? "expired" : stored;
  const failure = (INVITATION_DELIVERY_FAILURES as readonly string[]).includes(row.deliveryFailure ?? "") ? (row.deliveryFailure as InvitationDeliveryFailure) : null;
  return {
    ...rest,
    projectIds: parseJsonColumn(stringArraySchema, row.projectIds, `invitations ${row.id} project_ids`),
    deliveryStatus,
    deliveryFailure: deliveryStatus === "failed" ? (failure ?? "smtp_failed") : null,
    status,
  };
}

/** Where-clauses of each derived status at `now` (the same rules as `statusOf`). */
function statusWhere(status: InvitationStatus, now: Date): Record<string, unknown> {
  if (status === "accepted") return { acceptedAt: { not: null } };
  if (status === "revoked") return { acceptedAt: null, revokedAt: { not: null } };
  if (status === "expired") return { acceptedAt: null, revokedAt: null, expiresAt: { lte: now } };
  return { acceptedAt: null, revokedAt: null, expiresAt: { gt: now } };
}

/**
 * Creates an invitation (store `hashToken(token)`; the token goes only into the email).
 * 409 `conflict` (param `email`) when the email already belongs to a member of the organization
 * or has a pending invitation there (`details.invitation_id`; resend that one instead);
 * 400 when a project id is not the organization's.
 */
export async function createInvitation(
  db: DatabaseClient,
  input: { organizationId: string; email: string; role: string; projectIds?: string[]; tokenHash: string; expiresAt: Date; invitedByUserId?: string | null; now?: Date },
): Promise<InvitationRecord> {
  const now = input.now ?? new Date();
  const role = requireOneOf(MEMBERSHIP_ROLES, input.role, "role");
  const emailNormalized = normalizeEmail(input.email);
  const members = await db.prisma.membership.count({ where: { organizationId: input.organizationId, user: { emailNormalized } } });
  if (members > 0) throw new GatewayError("conflict", { message: "This person is already a member.", param: "email" });
  const pending = await db.prisma.invitation.findFirst({ where: { organizationId: input.organizationId, emailNormalized, ...statusWhere("pending", now) }, select: { id: true } });
  if (pending) {
    throw new GatewayError("conflict", { message: "A pending invitation exists for this email; resend it instead.", param: "email", details: { invitation_id: pending.id } });
  }
  const projectIds = [...new Set(input.projectIds ?? [])];
  if (projectIds.length > 0) {
    const found = await db.prisma.project.count({ where: { id: { in: projectIds }, organizationId: input.organizationId } });
    if (found !== projectIds.length) throw new GatewayError("invalid_request", { message: "project_ids names a project of another organization or none.", param: "project_ids" });
  }
  return toRecord(
    await translateWrite("invitation", () =>
      db.prisma.invitation.create({
        data: {
          organizationId: input.organizationId,
          email: input.email.trim(),
          emailNormalized,
          role,
          projectIds,
          tokenHash: input.tokenHash,
          expiresAt: input.expiresAt,
          invitedByUserId: input.invitedByUserId ?? null,
        },
      }),
    ),
    now,
  );
}

/** Filters of `listInvitations`. `state` is derived: pending = not accepted, not revoked, not expired. */
export interface ListInvitationsOptions {
  organizationId: string;
  state?: InvitationStatus;
  /** The derived `deliveryStatus`: "expired" = expired unaccepted; "sent"/"failed" = last email outcome of the others. */
  deliveryStatus?: InvitationDeliveryStatus;
  role?: string;
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
  if (options.role) where.push({ role: options.role });
  if (options.state) where.push(statusWhere(options.state, now));
  if (options.deliveryStatus === "expired") where.push(statusWhere("expired", now));
  else if (options.deliveryStatus) {
    where.push({ deliveryStatus: options.deliveryStatus, OR: [{ acceptedAt: { not: null } }, { revokedAt: { not: null } }, { expiresAt: { gt: now } }] });
  }
  if (options.cursor) where.push(afterTimeCursor("createdAt", decodeTimeCursor(options.cursor)));
  const rows = await db.prisma.invitation.findMany({ where: { AND: where }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const page = toPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
  return { data: page.data.map((row) => toRecord(row, now)), nextCursor: page.nextCursor };
}

/** The invitation (status derived at `now`), or null when it is not in the organization. */
export async function getInvitation(db: DatabaseClient, organizationId: string, id: string, now = new Date()): Promise<InvitationRecord | null> {
  const row = await db.prisma.invitation.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row, now) : null;
}

/** The invitation for an acceptance link (any organization, status derived at `now`), or null. */
export async function findInvitationByTokenHash(db: DatabaseClient, tokenHash: string, now = new Date()): Promise<InvitationRecord | null> {
  const row = await db.prisma.invitation.findUnique({ where: { tokenHash } });
  return row ? toRecord(row, now) : null;
}

/**
 * Records what really happened to an email: "sent" (the mail server accepted it) sets
 * `emailSentAt` and clears the failure; "failed" keeps the previous time and stores `failure`
 * (default "smtp_failed").
 */
export async function recordInvitationDelivery(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  input: { status: "sent" | "failed"; failure?: InvitationDeliveryFailure; at?: Date },
): Promise<InvitationRecord> {
  const at = input.at ?? new Date();
  return toRecord(
    await translateWrite("invitation", () =>
      db.prisma.invitation.update({
        where: { id, organizationId },
        data: {
          deliveryStatus: input.status,
          deliveryFailure: input.status === "sent" ? null : requireOneOf(INVITATION_DELIVERY_FAILURES, input.failure ?? "smtp_failed", "failure"),
          sendCount: { increment: 1 },
          ...(input.status === "sent" ? { emailSentAt: at } : {}),
        },
      }),
    ),
    at,
  );
}

/** Resend: renews the token and expiry. 409 for accepted or revoked invitations, 404 when missing. */
export async function renewInvitation(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  input: { tokenHash: string; expiresAt: Date; now?: Date },
): Promise<InvitationRecord> {
  const result = await db.prisma.invitation.updateMany({
    where: { id, organizationId, acceptedAt: null, revokedAt: null },
    data: { tokenHash: input.tokenHash, expiresAt: input.expiresAt },
  });
  const row = await db.prisma.invitation.findFirst({ where: { id, organizationId } });
  if (!row) throw new GatewayError("not_found", { message: "invitation not found" });
  if (result.count === 0) {
    throw new GatewayError("conflict", { message: row.acceptedAt ? "The invitation was already accepted." : "The invitation was revoked; create a new one." });
  }
  return toRecord(row, input.now);
}

/** Revokes a pending invitation (idempotent). 404 when missing, 409 when already accepted. */
export async function revokeInvitation(db: DatabaseClient, organizationId: string, id: string, now = new Date()): Promise<InvitationRecord> {
  await db.prisma.invitation.updateMany({ where: { id, organizationId, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
  const row = await db.prisma.invitation.findFirst({ where: { id, organizationId } });
  if (!row) throw new GatewayError("not_found", { message: "invitation not found" });
  if (row.acceptedAt) throw new GatewayError("conflict", { message: "The invitation was already accepted; remove the member instead." });
  return toRecord(row, now);
}

/**
 * Accepts an invitation for `userId` (the caller creates the account first when needed): in
 * one transaction marks it accepted, adds the membership with the invited role (an existing
 * membership keeps its role: accepting never demotes or promotes a member) and the project
 * memberships. 404 unknown, 409 accepted/revoked/expired. Safe against double acceptance
 * (conditional update).
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
      update: {},
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
