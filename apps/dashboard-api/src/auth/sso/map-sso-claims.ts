import type { SsoConfigurationRecord } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { roles, type Role } from "../role-permissions.js";

/** What an ID token's claims mean for the organization. */
export interface MappedSsoClaims {
  subject: string;
  email: string;
  name: string;
  groups: string[];
  /** The most powerful role the groups map to; null when no role mapping matches. */
  mappedRole: Role | null;
  /** The role a new member gets: `mappedRole`, else the configuration's default role. */
  role: Role;
  /** Teams and projects the groups grant, among those the mappings manage. */
  teamIds: string[];
  projectIds: string[];
}

/** Reads the groups claim: an array of strings, or one string (some providers send a single group so). */
export function readGroupsClaim(claims: Record<string, unknown>, claimName: string): string[] {
  const value = claims[claimName];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return [];
}

/**
 * Maps validated ID token claims through an organization's configuration: the email (required,
 * not marked unverified, in an allowed domain when domains are listed), the groups claim, the
 * role (the most powerful mapped one, else the default role) and the granted teams and projects.
 * A refused email answers 403 `sso_not_allowed`.
 */
export function mapSsoClaims(claims: Record<string, unknown>, configuration: Pick<SsoConfigurationRecord, "allowedEmailDomains" | "groupsClaim" | "roleMappings" | "teamMappings" | "projectMappings" | "defaultRole">): MappedSsoClaims {
  const subject = typeof claims.sub === "string" ? claims.sub : "";
  const email = typeof claims.email === "string" ? claims.email.trim() : "";
  if (subject === "") throw new GatewayError("sso_failed", { message: "The ID token has no subject (sub)." });
  if (email === "" || !email.includes("@")) {
    throw new GatewayError("sso_not_allowed", { message: "The identity provider sent no email address: add the 'email' scope or claim for this application." });
  }
  if (claims.email_verified === false) {
    throw new GatewayError("sso_not_allowed", { message: "The identity provider marks this email address as not verified." });
  }
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  if (configuration.allowedEmailDomains.length > 0 && !configuration.allowedEmailDomains.includes(domain)) {
    throw new GatewayError("sso_not_allowed", { message: `Email addresses at ${domain} may not sign in to this organization.` });
  }
  const groups = readGroupsClaim(claims, configuration.groupsClaim);
  const matched = configuration.roleMappings.filter((mapping) => groups.includes(mapping.group)).map((mapping) => mapping.role);
  const mappedRole = matched.length === 0 ? null : matched.reduce((best, role) => (roles.indexOf(role) < roles.indexOf(best) ? role : best));
  const name = [claims.name, [claims.given_name, claims.family_name].filter((part) => typeof part === "string").join(" "), claims.preferred_username]
    .find((candidate): candidate is string => typeof candidate === "string" && candidate.trim() !== "");
  return {
    subject,
    email,
    name: name?.trim().slice(0, 200) ?? "",
    groups,
    mappedRole,
    role: mappedRole ?? configuration.defaultRole,
    teamIds: [...new Set(configuration.teamMappings.filter((mapping) => groups.includes(mapping.group)).map((mapping) => mapping.team_id))],
    projectIds: [...new Set(configuration.projectMappings.filter((mapping) => groups.includes(mapping.group)).map((mapping) => mapping.project_id))],
  };
}
