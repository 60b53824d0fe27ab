import { randomBytes } from "node:crypto";
import { providerOf } from "@gateway/provider-adapters";
import {
  type DatabaseClient,
  type SecretBox,
  createApiKey,
  createUser,
  hashPassword,
  listOrganizations,
  upsertConnectionByName,
  upsertMembership,
  upsertOrganizationBySlug,
  upsertProjectByName,
} from "@gateway/db";

/** Models the built-in demo connection serves (the demo provider's: `demo/demo/chat`, `demo/demo/decide`, `demo/demo/embed`). */
export const demoConnectionModels: string[] = [...(providerOf("demo")?.models ?? [])];

/** What the first start created; secrets are present only when they were generated here. */
export interface FirstStartResult {
  organizationId: string;
  projectId: string;
  adminEmail: string;
  /** Generated password (null when taken from `GATEWAY_ADMIN_PASSWORD`). */
  generatedAdminPassword: string | null;
  /** The API key secret (generated or `GATEWAY_API_KEY`); print it once. */
  apiKey: string;
  apiKeyGenerated: boolean;
}

/** Options of {@link bootstrapFirstStart}. */
export interface BootstrapFirstStartOptions {
  db: DatabaseClient;
  secretBox: SecretBox;
  adminEmail?: string;
  adminPassword?: string;
  apiKey?: string;
}

/**
 * On an empty database (no organization), creates a default organization, an owner account,
 * a project, an API key and a `demo` connection so that the first request works offline.
 * Returns null (and changes nothing) when any organization exists.
 */
export async function bootstrapFirstStart(options: BootstrapFirstStartOptions): Promise<FirstStartResult | null> {
  const { db } = options;
  if ((await listOrganizations(db)).length > 0) return null;
  const organization = await upsertOrganizationBySlug(db, { name: "Default organization", slug: "default" });
  const adminEmail = options.adminEmail ?? "admin@gateway.local";
  const generatedAdminPassword = options.adminPassword === undefined ? randomBytes(18).toString("base64url") : null;
  const user = await createUser(db, {
    email: adminEmail,
    name: "Administrator",
    passwordHash: await hashPassword(options.adminPassword ?? (generatedAdminPassword as string)),
  });
  await upsertMembership(db, { organizationId: organization.id, userId: user.id, role: "owner" });
  const project = await upsertProjectByName(db, { organizationId: organization.id, name: "Default project" });
  const { secret } = await createApiKey(db, {
    organizationId: organization.id,
    projectId: project.id,
    name: "Default key",
    createdByUserId: user.id,
    ...(options.apiKey === undefined ? {} : { secret: options.apiKey }),
  });
  await upsertConnectionByName(
    db,
    { organizationId: organization.id, name: "demo", kind: "demo", models: demoConnectionModels, enabled: true },
    { secretBox: options.secretBox },
  );
  return {
    organizationId: organization.id,
    projectId: project.id,
    adminEmail,
    generatedAdminPassword,
    apiKey: secret,
    apiKeyGenerated: options.apiKey === undefined,
  };
}
