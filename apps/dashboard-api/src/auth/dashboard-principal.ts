import type { Permission, Role } from "./role-permissions.js";

/** The signed-in user of a request, resolved from the session cookie and the current membership. */
export interface DashboardPrincipal {
  /** The login session's database id. */
  sessionId: string;
  /** The stored hash of the session cookie (what logout revokes). */
  sessionHash: string;
  userId: string;
  email: string;
  name: string;
  organization: { id: string; name: string; slug: string };
  role: Role;
  permissions: ReadonlySet<Permission>;
  /** Projects the user is assigned to (owners and admins: whatever they were assigned; see `allProjects`). */
  projectIds: readonly string[];
  /**
   * Owners and admins act on every project of the organization, which is never listed here;
   * others only on `projectIds`. A query scoped to the principal filters by `projectIds` only when
   * this is false; checks go through {@link canUseProject}.
   */
  allProjects: boolean;
  expiresAt: Date;
}

/** Whether the principal may act on a project (owners/admins: any; others: assigned projects). */
export function canUseProject(principal: DashboardPrincipal, projectId: string): boolean {
  return principal.allProjects || principal.projectIds.includes(projectId);
}

/**
 * The projects whose calls the principal may see: null for every project of the organization
 * (owners, admins), else the assigned ones; beside `canUseProject`, the one reading of the scope for lists.
 */
export function visibleProjectIdsOf(principal: DashboardPrincipal): readonly string[] | null {
  return principal.allProjects ? null : principal.projectIds;
}
