import type { DatabaseClient } from "./create-database.js";
import { ORGANIZATION_AUTHENTICATION } from "./enums.js";
import { holdsValues, requireOneOf, translateWrite } from "./repository-support.js";

/** An organization row. */
export interface OrganizationRecord {
  id: string;
  name: string;
  slug: string;
  authenticationRequired: "password" | "sso";
  createdAt: Date;
  updatedAt: Date;
}

export interface OrganizationInput {
  name: string;
  slug: string;
  authenticationRequired?: "password" | "sso";
}

const toRecord = (row: { authenticationRequired: string } & Omit<OrganizationRecord, "authenticationRequired">): OrganizationRecord => ({
  ...row,
  authenticationRequired: row.authenticationRequired === "sso" ? "sso" : "password",
});

/** Creates an organization; 409 `conflict` when the slug is taken. */
export async function createOrganization(db: DatabaseClient, input: OrganizationInput): Promise<OrganizationRecord> {
  const authenticationRequired = requireOneOf(ORGANIZATION_AUTHENTICATION, input.authenticationRequired ?? "password", "authentication_required");
  return toRecord(await translateWrite("organization", () => db.prisma.organization.create({ data: { name: input.name, slug: input.slug, authenticationRequired } })));
}

/** Declarative config: creates or updates the organization with this slug (an unchanged one is not written). */
export async function upsertOrganizationBySlug(db: DatabaseClient, input: OrganizationInput): Promise<OrganizationRecord> {
  const authenticationRequired = requireOneOf(ORGANIZATION_AUTHENTICATION, input.authenticationRequired ?? "password", "authentication_required");
  const existing = await db.prisma.organization.findUnique({ where: { slug: input.slug } });
  if (existing && holdsValues(existing, { name: input.name, authenticationRequired })) return toRecord(existing);
  return toRecord(
    await db.prisma.organization.upsert({
      where: { slug: input.slug },
      create: { name: input.name, slug: input.slug, authenticationRequired },
      update: { name: input.name, authenticationRequired },
    }),
  );
}

export async function getOrganization(db: DatabaseClient, id: string): Promise<OrganizationRecord | null> {
  const row = await db.prisma.organization.findUnique({ where: { id } });
  return row ? toRecord(row) : null;
}

export async function getOrganizationBySlug(db: DatabaseClient, slug: string): Promise<OrganizationRecord | null> {
  const row = await db.prisma.organization.findUnique({ where: { slug } });
  return row ? toRecord(row) : null;
}

export async function listOrganizations(db: DatabaseClient): Promise<OrganizationRecord[]> {
  return (await db.prisma.organization.findMany({ orderBy: { createdAt: "asc" } })).map(toRecord);
}

/** Updates name / slug / authentication; 404 when missing, 409 on a taken slug. */
export async function updateOrganization(db: DatabaseClient, id: string, changes: Partial<OrganizationInput>): Promise<OrganizationRecord> {
  const data: Record<string, unknown> = {};
  if (changes.name !== undefined) data.name = changes.name;
  if (changes.slug !== undefined) data.slug = changes.slug;
  if (changes.authenticationRequired !== undefined) {
    data.authenticationRequired = requireOneOf(ORGANIZATION_AUTHENTICATION, changes.authenticationRequired, "authentication_required");
  }
  return toRecord(await translateWrite("organization", () => db.prisma.organization.update({ where: { id }, data })));
}

/**
 * Deletes an organization and EVERYTHING it owns (memberships, teams, projects, keys, sessions,
 * invitations, connections, policies, routes, budgets, limits, destinations, channels, MCP).
 * Usage events and audit events are kept (they have no foreign keys). 404 when missing.
 */
export async function deleteOrganization(db: DatabaseClient, id: string): Promise<void> {
  await translateWrite("organization", () => db.prisma.organization.delete({ where: { id } }));
}
