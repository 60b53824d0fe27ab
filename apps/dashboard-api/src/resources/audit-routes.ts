import { listAuditEvents } from "@gateway/db";
import { z } from "zod";
import { iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { listObjectSchema, pageOf, paginationQueryShape } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";

/** One audit event. */
export const auditEventSchema = z.object({
  id: z.string(),
  occurred_at: timestamp,
  actor_kind: z.string(),
  actor_id: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip_address: z.string().nullable(),
  request_id: z.string().nullable(),
  object: z.literal("audit.event"),
});

const query = z.object({
  ...paginationQueryShape,
  action: z.string().max(100).optional().describe("Matches every action that starts with it: `api_key` finds `api_key.created` and `api_key.revoked`"),
  target_type: z.string().max(100).optional().describe("Matches every target type that starts with it"),
  target_id: z.string().max(100).optional(),
  actor_id: z.string().max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

/** Audit trail route: `GET /api/audit-events`. */
export function createAuditRoutes(services: DashboardServices): DashboardRoute[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/audit-events",
      operationId: "list_audit_events",
      summary: "List audit events",
      description:
        "Every change made through the dashboard, newest first. Filters: `action` and `target_type` (prefixes: `api_key` finds `api_key.created`), `target_id`, `actor_id` (exact), `from`, `to`.",
      tag: "Audit",
      access: "audit:read",
      query,
      responses: [{ status: 200, description: "A page of audit events", schema: listObjectSchema(auditEventSchema) }],
      async handler({ principal, query: filters }) {
        const page = await listAuditEvents(services.database, {
          organizationId: principal.organization.id,
          ...(filters.action ? { actionPrefix: filters.action } : {}),
          ...(filters.target_type ? { targetTypePrefix: filters.target_type } : {}),
          ...(filters.target_id ? { targetId: filters.target_id } : {}),
          ...(filters.actor_id ? { actorId: filters.actor_id } : {}),
          ...(filters.from ? { from: new Date(filters.from) } : {}),
          ...(filters.to ? { to: new Date(filters.to) } : {}),
          limit: filters.limit,
          ...(filters.cursor ? { cursor: filters.cursor } : {}),
        });
        return {
          status: 200,
          body: pageOf(page, (row) => ({
            id: row.id,
            occurred_at: iso(row.occurredAt),
            actor_kind: row.actorKind,
            actor_id: row.actorId,
            action: row.action,
            target_type: row.targetType,
            target_id: row.targetId,
            before: row.before ?? null,
            after: row.after ?? null,
            ip_address: row.ipAddress,
            request_id: row.requestId,
            object: "audit.event" as const,
          })),
        };
      },
    }),
  ];
}
