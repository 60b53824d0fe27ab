import { getApiKey, getProject, getTeam, isUniqueViolation } from "@gateway/db";
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

/** Runs a repository write and answers its 409 `conflict` (a duplicate name) with the dashboard's message and param. */
export async function withConflict<Result>(write: () => Promise<Result>, message: string, param?: string): Promise<Result> {
  try {
    return await write();
  } catch (error) {
    const duplicate = (GatewayError.isInstance(error) && error.code === "conflict") || isUniqueViolation(error);
    if (duplicate) throw new GatewayError("conflict", { message, ...(param ? { param } : {}) });
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
  const database = services.database;
  let exists = false;
  if (scope === "organization") exists = scopeId === organizationId;
  else if (scope === "project") exists = (await getProject(database, organizationId, scopeId)) !== null;
  else if (scope === "key") exists = (await getApiKey(database, organizationId, scopeId)) !== null;
  else exists = (await getTeam(database, organizationId, scopeId)) !== null;
  if (!exists) {
    throw new GatewayError("invalid_request", {
      message: `scope_id does not name a ${scope === "key" ? "API key" : scope} of this organization.`,
      param: "scope_id",
    });
  }
}
