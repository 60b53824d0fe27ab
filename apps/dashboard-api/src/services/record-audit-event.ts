import { appendAuditEvent } from "@gateway/db";
import type { Request } from "express";
import type { DashboardServices } from "./dashboard-services.js";
import { clientAddressOf } from "../http/client-address.js";

/** One audited change. `before`/`after` are the API representations (never secrets). */
export interface AuditInput {
  organizationId: string | null;
  actorId: string | null;
  actorKind?: "user" | "system";
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Appends an audit event (the evidence trail of every change made through the dashboard).
 * Written right after the change it describes; audit rows have no foreign keys, so they
 * outlive deleted resources. Every change goes through here, so this is also where a
 * control-plane write is announced to the gateways (`services.announceControlPlaneChange`:
 * best effort, never failing the request), even when appending the audit row fails.
 */
export async function recordAuditEvent(
  services: Pick<DashboardServices, "database" | "now"> & Partial<Pick<DashboardServices, "announceControlPlaneChange">>,
  context: { request: Request; requestId: string },
  input: AuditInput,
): Promise<void> {
  try {
    await appendAudit(services, context, input);
  } finally {
    await services.announceControlPlaneChange?.(input.action);
  }
}

async function appendAudit(services: Pick<DashboardServices, "database" | "now">, context: { request: Request; requestId: string }, input: AuditInput): Promise<void> {
  await appendAuditEvent(services.database, {
    organizationId: input.organizationId,
    actorKind: input.actorKind ?? "user",
    actorId: input.actorId,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId,
    before: input.before,
    after: input.after,
    ipAddress: clientAddressOf(context.request),
    requestId: context.requestId,
    occurredAt: services.now(),
  });
}
