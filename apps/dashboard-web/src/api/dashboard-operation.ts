import { dashboardOperations } from "../generated/dashboard-operations.js";

/** An operation of the dashboard API, as `<method> <path>` (e.g. `post /api/api-keys`). */
export type DashboardOperation = keyof typeof dashboardOperations;

/** A permission string some operation needs (`api_keys:write`, ...). */
export type Permission = NonNullable<(typeof dashboardOperations)[DashboardOperation]["permission"]>;

/**
 * The permission an operation needs, read from the OpenAPI document's `x-permission` (null for
 * public and session-only operations). Screens gate their actions with it, so what a role sees
 * is exactly what the API would let it do.
 */
export function permissionOf(operation: DashboardOperation): Permission | null {
  return dashboardOperations[operation].permission;
}
