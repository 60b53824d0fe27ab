/** Every permission string a dashboard route can require. */
export const allPermissions = [
  "organization:read",
  "organization:write",
  "members:read",
  "members:write",
  "teams:read",
  "teams:write",
  "invitations:read",
  "invitations:write",
  "projects:read",
  "projects:write",
  "api_keys:read",
  "api_keys:write",
  "connections:read",
  "connections:write",
  "policies:read",
  "policies:write",
  "routes:read",
  "routes:write",
  "budgets:read",
  "budgets:write",
  "budgets:reset",
  "rate_limits:read",
  "rate_limits:write",
  "telemetry:read",
  "telemetry:write",
  "notifications:read",
  "notifications:write",
  "monitors:read",
  "monitors:write",
  "mcp:read",
  "mcp:write",
  "playground:use",
  "usage:read",
  "audit:read",
  "activity:read",
  "activity:content",
] as const;

/** A permission string such as `api_keys:write`. */
export type Permission = (typeof allPermissions)[number];

/** The organization roles, most powerful first. */
export const roles = ["owner", "admin", "member", "viewer"] as const;

/** An organization role. */
export type Role = (typeof roles)[number];

const readPermissions = allPermissions.filter((permission) => permission.endsWith(":read"));

/**
 * The one role -> permissions table.
 * - owner: everything.
 * - admin: everything except changing the organization itself and resetting a budget's spend.
 * - member: reads configuration, manages API keys of their own projects, uses the playground.
 * - viewer: reads only (no secrets are ever readable).
 */
export const permissionsByRole: Readonly<Record<Role, readonly Permission[]>> = {
  owner: [...allPermissions],
  admin: allPermissions.filter((permission) => permission !== "organization:write" && permission !== "budgets:reset"),
  member: [...readPermissions.filter((permission) => permission !== "audit:read"), "api_keys:write", "playground:use"],
  viewer: readPermissions.filter((permission) => permission !== "audit:read"),
};

/** Roles whose holders see and act on every project; others are limited to their `project_ids`. */
export const rolesWithAllProjects: readonly Role[] = ["owner", "admin"];

/** Human-readable role names (`role_label` of the session's user). */
export const roleLabels: Readonly<Record<Role, string>> = {
  owner: "Owner",
  admin: "Administrator",
  member: "Member",
  viewer: "Viewer",
};

/** Whether a string is a known role. */
export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** The permissions of a role (an unknown role has none). */
export function permissionsForRole(role: string): readonly Permission[] {
  return isRole(role) ? permissionsByRole[role] : [];
}
