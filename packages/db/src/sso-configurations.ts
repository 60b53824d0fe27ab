import { z } from "zod";
import type { DatabaseClient } from "./create-database.js";
import { MEMBERSHIP_ROLES } from "./enums.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { holdsValues, requireOneOf, translateWrite } from "./repository-support.js";
import type { SecretBinding, SecretBox } from "./secret-box.js";
import { newBoundRowId } from "./secret-bindings.js";

/** How the dashboard authenticates to the OpenID provider's token endpoint. */
export const SSO_CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"] as const;
/** One of {@link SSO_CLIENT_AUTH_METHODS}. */
export type SsoClientAuthMethod = (typeof SSO_CLIENT_AUTH_METHODS)[number];

const roleMappingsSchema = z.array(z.object({ group: z.string(), role: z.enum(MEMBERSHIP_ROLES) }));
const teamMappingsSchema = z.array(z.object({ group: z.string(), team_id: z.string() }));
const projectMappingsSchema = z.array(z.object({ group: z.string(), project_id: z.string() }));

/** A group of the groups claim mapped to an organization role. */
export type SsoRoleMapping = z.infer<typeof roleMappingsSchema>[number];
/** A group of the groups claim mapped to team membership. */
export type SsoTeamMapping = z.infer<typeof teamMappingsSchema>[number];
/** A group of the groups claim mapped to project membership. */
export type SsoProjectMapping = z.infer<typeof projectMappingsSchema>[number];

/** An organization's single sign-on configuration; the client credential is never part of it. */
export interface SsoConfigurationRecord {
  id: string;
  organizationId: string;
  enabled: boolean;
  issuerUrl: string;
  clientId: string;
  clientAuthMethod: SsoClientAuthMethod;
  /** Whether a client secret or private key is stored. */
  hasClientCredential: boolean;
  scopes: string[];
  allowedEmailDomains: string[];
  groupsClaim: string;
  roleMappings: SsoRoleMapping[];
  teamMappings: SsoTeamMapping[];
  projectMappings: SsoProjectMapping[];
  jitProvisioning: boolean;
  defaultRole: (typeof MEMBERSHIP_ROLES)[number];
  ownerSignedInAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What {@link upsertSsoConfiguration} writes. */
export interface SsoConfigurationInput {
  organizationId: string;
  enabled?: boolean;
  issuerUrl: string;
  clientId: string;
  clientAuthMethod: string;
  /** The client secret, or the private JWK (JSON) for `private_key_jwt`; undefined keeps the stored one. */
  clientCredential?: string | null;
  scopes?: string[];
  allowedEmailDomains?: string[];
  groupsClaim?: string;
  roleMappings?: SsoRoleMapping[];
  teamMappings?: SsoTeamMapping[];
  projectMappings?: SsoProjectMapping[];
  jitProvisioning?: boolean;
  defaultRole?: string;
}

/** What the client credential ciphertext is bound to (its organization and row). */
export function ssoClientCredentialBinding(organizationId: string, id: string): SecretBinding {
  return { organizationId, column: "sso_configurations.client_credential_ciphertext", rowId: id };
}

type Row = Awaited<ReturnType<DatabaseClient["prisma"]["ssoConfiguration"]["findFirstOrThrow"]>>;

function toRecord({ clientCredentialCiphertext, ...row }: Row): SsoConfigurationRecord {
  const where = `sso_configurations ${row.id}`;
  return {
    ...row,
    clientAuthMethod: requireOneOf(SSO_CLIENT_AUTH_METHODS, row.clientAuthMethod, "client_auth_method"),
    hasClientCredential: clientCredentialCiphertext !== null,
    scopes: parseJsonColumn(stringArraySchema, row.scopes, `${where} scopes`),
    allowedEmailDomains: parseJsonColumn(stringArraySchema, row.allowedEmailDomains, `${where} allowed_email_domains`),
    roleMappings: parseJsonColumn(roleMappingsSchema, row.roleMappings, `${where} role_mappings`),
    teamMappings: parseJsonColumn(teamMappingsSchema, row.teamMappings, `${where} team_mappings`),
    projectMappings: parseJsonColumn(projectMappingsSchema, row.projectMappings, `${where} project_mappings`),
    defaultRole: requireOneOf(MEMBERSHIP_ROLES, row.defaultRole, "default_role"),
  };
}

/** The organization's configuration, or null when it has none. */
export async function getSsoConfiguration(db: DatabaseClient, organizationId: string): Promise<SsoConfigurationRecord | null> {
  const row = await db.prisma.ssoConfiguration.findUnique({ where: { organizationId } });
  return row ? toRecord(row) : null;
}

/** The decrypted client secret or private JWK (for the sign-in only; never render it). */
export async function getSsoClientCredential(db: DatabaseClient, organizationId: string, options: { secretBox: SecretBox }): Promise<string | null> {
  const row = await db.prisma.ssoConfiguration.findUnique({ where: { organizationId }, select: { id: true, clientCredentialCiphertext: true } });
  if (row?.clientCredentialCiphertext == null) return null;
  return options.secretBox.decrypt(row.clientCredentialCiphertext, ssoClientCredentialBinding(organizationId, row.id));
}

/**
 * Creates or replaces the organization's configuration. Changing the issuer or the client id
 * clears `ownerSignedInAt`: an owner has to sign in through the new provider before single
 * sign-on can be required again. A configuration that already holds the values is not written.
 */
export async function upsertSsoConfiguration(db: DatabaseClient, input: SsoConfigurationInput, options: { secretBox: SecretBox }): Promise<SsoConfigurationRecord> {
  const existing = await db.prisma.ssoConfiguration.findUnique({ where: { organizationId: input.organizationId } });
  const id = existing?.id ?? newBoundRowId();
  const data: Record<string, unknown> = {
    enabled: input.enabled ?? existing?.enabled ?? true,
    issuerUrl: input.issuerUrl,
    clientId: input.clientId,
    clientAuthMethod: requireOneOf(SSO_CLIENT_AUTH_METHODS, input.clientAuthMethod, "client_auth_method"),
    scopes: input.scopes ?? (existing?.scopes as string[] | undefined) ?? ["openid", "email", "profile"],
    allowedEmailDomains: (input.allowedEmailDomains ?? (existing?.allowedEmailDomains as string[] | undefined) ?? []).map((domain) => domain.toLowerCase()),
    groupsClaim: input.groupsClaim ?? existing?.groupsClaim ?? "groups",
    roleMappings: input.roleMappings ?? existing?.roleMappings ?? [],
    teamMappings: input.teamMappings ?? existing?.teamMappings ?? [],
    projectMappings: input.projectMappings ?? existing?.projectMappings ?? [],
    jitProvisioning: input.jitProvisioning ?? existing?.jitProvisioning ?? false,
    defaultRole: requireOneOf(MEMBERSHIP_ROLES, input.defaultRole ?? existing?.defaultRole ?? "member", "default_role"),
  };
  let credentialChanged = false;
  if (input.clientCredential !== undefined) {
    const current =
      existing?.clientCredentialCiphertext == null
        ? null
        : options.secretBox.decrypt(existing.clientCredentialCiphertext, ssoClientCredentialBinding(input.organizationId, id));
    if (current !== input.clientCredential) {
      credentialChanged = true;
      data.clientCredentialCiphertext =
        input.clientCredential === null ? null : options.secretBox.encrypt(input.clientCredential, ssoClientCredentialBinding(input.organizationId, id));
    }
  }
  if (existing !== null && !credentialChanged && holdsValues(existing, data)) return toRecord(existing);
  if (existing !== null && (existing.issuerUrl !== input.issuerUrl || existing.clientId !== input.clientId)) data.ownerSignedInAt = null;
  const row = await translateWrite("single sign-on configuration", () =>
    existing === null
      ? db.prisma.ssoConfiguration.create({ data: { id, organizationId: input.organizationId, ...data } as never })
      : db.prisma.ssoConfiguration.update({ where: { id }, data }),
  );
  return toRecord(row);
}

/** Removes the organization's configuration (and the identities linked through it). */
export async function deleteSsoConfiguration(db: DatabaseClient, organizationId: string): Promise<void> {
  await translateWrite("single sign-on configuration", () => db.prisma.ssoConfiguration.delete({ where: { organizationId } }));
  await db.prisma.ssoIdentity.deleteMany({ where: { organizationId } });
}

/** Records that an owner completed a sign-in through the organization's provider. */
export async function markSsoOwnerSignedIn(db: DatabaseClient, organizationId: string, at: Date): Promise<void> {
  await db.prisma.ssoConfiguration.updateMany({ where: { organizationId }, data: { ownerSignedInAt: at } });
}

/** An organization whose enabled single sign-on accepts an email domain. */
export interface SsoOrganizationMatch {
  organizationId: string;
  name: string;
  slug: string;
  authenticationRequired: string;
}

/**
 * The organizations whose enabled single sign-on lists `domain` among its allowed email domains
 * (a configuration without domains is reached by its organization only, never by discovery).
 */
export async function findSsoOrganizationsByEmailDomain(db: DatabaseClient, domain: string): Promise<SsoOrganizationMatch[]> {
  const wanted = domain.trim().toLowerCase();
  const rows = await db.prisma.ssoConfiguration.findMany({
    where: { enabled: true },
    select: { id: true, allowedEmailDomains: true, organization: { select: { id: true, name: true, slug: true, authenticationRequired: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows
    .filter((row) => parseJsonColumn(stringArraySchema, row.allowedEmailDomains, `sso_configurations ${row.id} allowed_email_domains`).includes(wanted))
    .map((row) => ({ organizationId: row.organization.id, name: row.organization.name, slug: row.organization.slug, authenticationRequired: row.organization.authenticationRequired }));
}
