import { GatewayError } from "@gateway/errors";
import type { RouteContext } from "../routing/dashboard-route.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { type AuditInput, recordAuditEvent } from "../services/record-audit-event.js";

/** The 404 every lookup answers for missing ids and for other organizations' ids alike. */
export function notFound(what: string): GatewayError {
  return new GatewayError("not_found", { message: `${what} not found.` });
}

/** Throws 404 unless the row exists (lookups always filter by the caller's organization). */
export function found<Row>(row: Row | null | undefined, what: string): Row {
  if (row === null || row === undefined) throw notFound(what);
  return row;
}

/** Records an audit event for a change made by the signed-in user. */
export function auditChange(
  services: DashboardServices,
  context: RouteContext<unknown, unknown, unknown>,
  input: Omit<AuditInput, "organizationId" | "actorId">,
): Promise<void> {
  return recordAuditEvent(services, context, {
    organizationId: context.principal.organization.id,
    actorId: context.principal.userId,
    ...input,
  });
}

/** Whether an error is a unique-constraint violation (Prisma P2002, any adapter). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (code === "P2002") return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && /unique constraint/i.test(message);
}

/** Runs a write and turns a unique violation into 409 `conflict`. */
export async function withConflict<Result>(write: () => Promise<Result>, message: string, param?: string): Promise<Result> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new GatewayError("conflict", { message, ...(param ? { param } : {}) });
    throw error;
  }
}

/** Budget/policy/rate-limit scopes. */
export type ConfigurationScope = "organization" | "project" | "key" | "team";

/**
 * Checks that a scope id names something of the caller's organization: the organization
 * itself, one of its projects, keys or teams. Unknown ids are 400 `invalid_request` (param `scope_id`).
 */
export async function assertScopeBelongs(
  services: DashboardServices,
  organizationId: string,
  scope: ConfigurationScope,
  scopeId: string,
): Promise<void> {
  let exists = false;
  if (scope === "organization") exists = scopeId === organizationId;
  else if (scope === "project") exists = (await services.prisma.project.count({ where: { id: scopeId, organizationId } })) > 0;
  else if (scope === "key") exists = (await services.prisma.apiKey.count({ where: { id: scopeId, organizationId } })) > 0;
  else exists = (await services.prisma.team.count({ where: { id: scopeId, organizationId } })) > 0;
  if (!exists) {
    throw new GatewayError("invalid_request", {
      message: `scope_id does not name a ${scope === "key" ? "API key" : scope} of this organization.`,
      param: "scope_id",
    });
  }
}

/** Reads a Json column that should hold an array of strings. */
export function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Reads a Json column that should hold a string-to-string record. */
export function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
