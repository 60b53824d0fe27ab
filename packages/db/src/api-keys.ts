import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { describeApiKey, generateApiKey, isApiKeyFormat } from "./api-key.js";
import { afterTimeCursor, decodeTimeCursor, holdsValues, pageSize, runInTransaction, toPage, translateWrite, type Page } from "./repository-support.js";
import type { ProjectRecord } from "./projects.js";
import type { OrganizationRecord } from "./organizations.js";
import { type ApiKeyRevocation, revokeApiKeyStatement } from "./revoke-api-key-statement.js";
import type { SqlClient } from "./sql-client.js";

/** An API key row (only the hash of the secret is stored). */
export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  projectId: string;
  teamId: string | null;
  name: string;
  prefix: string;
  lastFour: string;
  secretHash: string;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedByUserId: string | null;
  /** Metadata recorded with every call of the key (read with `parseStoredMetadata`). */
  defaultMetadata?: unknown;
}

export interface ApiKeyInput {
  organizationId: string;
  projectId: string;
  name: string;
  teamId?: string | null;
  createdByUserId?: string | null;
  expiresAt?: Date | null;
  /** Metadata recorded with every call of the key; `X-Gateway-Metadata` is merged over it. */
  defaultMetadata?: Record<string, string>;
  /** A given `gak_` secret (declarative config); generated when absent. */
  secret?: string;
}

async function assertProjectAndTeam(db: DatabaseClient, input: ApiKeyInput): Promise<void> {
  const project = await db.prisma.project.findFirst({ where: { id: input.projectId, organizationId: input.organizationId }, select: { id: true } });
  if (!project) throw new GatewayError("invalid_request", { message: "project_id does not name a project of this organization.", param: "project_id" });
  if (input.teamId) {
    const team = await db.prisma.team.findFirst({ where: { id: input.teamId, organizationId: input.organizationId }, select: { id: true } });
    if (!team) throw new GatewayError("invalid_request", { message: "team_id does not name a team of this organization.", param: "team_id" });
  }
}

/**
 * Creates a key. Answers the stored record and the secret, which is shown once and never
 * stored. 409 when the secret's hash already exists.
 */
export async function createApiKey(db: DatabaseClient, input: ApiKeyInput): Promise<{ apiKey: ApiKeyRecord; secret: string }> {
  if (input.secret !== undefined && !isApiKeyFormat(input.secret)) {
    throw new GatewayError("invalid_request", { message: "api key secrets are gak_ followed by at least 43 base62 characters", param: "secret" });
  }
  await assertProjectAndTeam(db, input);
  const generated = input.secret === undefined ? generateApiKey() : describeApiKey(input.secret);
  const apiKey = await translateWrite("api key", () =>
    db.prisma.apiKey.create({
      data: {
        organizationId: input.organizationId,
        projectId: input.projectId,
        teamId: input.teamId ?? null,
        name: input.name,
        defaultMetadata: input.defaultMetadata ?? {},
        prefix: generated.prefix,
        lastFour: generated.lastFour,
        secretHash: generated.hash,
        createdByUserId: input.createdByUserId ?? null,
        expiresAt: input.expiresAt ?? null,
      },
    }),
  );
  return { apiKey, secret: generated.secret };
}

/**
 * Declarative config: a key with this secret (given) is created or its name/project/expiry
 * updated. A revoked key stays revoked. Answers `created: true` when it was new.
 */
export async function upsertApiKeyBySecret(db: DatabaseClient, input: ApiKeyInput & { secret: string }): Promise<{ apiKey: ApiKeyRecord; created: boolean }> {
  const existing = await db.prisma.apiKey.findUnique({ where: { secretHash: describeApiKey(input.secret).hash } });
  if (!existing) return { apiKey: (await createApiKey(db, input)).apiKey, created: true };
  if (existing.organizationId !== input.organizationId) {
    throw new GatewayError("conflict", { message: "this api key secret belongs to another organization", param: "secret" });
  }
  await assertProjectAndTeam(db, input);
  const data = { name: input.name, projectId: input.projectId, teamId: input.teamId ?? null, expiresAt: input.expiresAt ?? null, ...(input.defaultMetadata === undefined ? {} : { defaultMetadata: input.defaultMetadata }) };
  if (holdsValues(existing, data)) return { apiKey: existing, created: false };
  const apiKey = await db.prisma.apiKey.update({ where: { id: existing.id }, data });
  return { apiKey, created: false };
}

/** Keys of an organization (optionally one project), newest first; revoked ones only when asked. */
export async function listApiKeys(
  db: DatabaseClient,
  input: { organizationId: string; projectId?: string; includeRevoked?: boolean },
): Promise<ApiKeyRecord[]> {
  return db.prisma.apiKey.findMany({
    where: {
      organizationId: input.organizationId,
      ...(input.projectId ? { projectId: input.projectId } : {}),
      ...(input.includeRevoked ? {} : { revokedAt: null }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** Derived state of a key at a moment: revoked wins over expired. */
export type ApiKeyStatus = "active" | "expired" | "revoked";

/** Filters of `listApiKeysPage`. */
export interface ListApiKeysPageOptions {
  organizationId: string;
  projectId?: string;
  status?: ApiKeyStatus;
  limit?: number;
  cursor?: string;
  /** The moment `status` is judged at (default now). */
  now?: Date;
}

/** Keys newest first, revoked ones included unless filtered, cursor-paginated (the dashboard's list). */
export async function listApiKeysPage(db: DatabaseClient, options: ListApiKeysPageOptions): Promise<Page<ApiKeyRecord>> {
  const now = options.now ?? new Date();
  const limit = pageSize(options.limit);
  const where: Record<string, unknown>[] = [{ organizationId: options.organizationId }];
  if (options.projectId) where.push({ projectId: options.projectId });
  if (options.status === "revoked") where.push({ revokedAt: { not: null } });
  if (options.status === "expired") where.push({ revokedAt: null, expiresAt: { lte: now } });
  if (options.status === "active") where.push({ revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });
  if (options.cursor) where.push(afterTimeCursor("createdAt", decodeTimeCursor(options.cursor)));
  const rows = await db.prisma.apiKey.findMany({ where: { AND: where }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit + 1 });
  return toPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
}

export async function getApiKey(db: DatabaseClient, organizationId: string, id: string): Promise<ApiKeyRecord | null> {
  return db.prisma.apiKey.findFirst({ where: { id, organizationId } });
}

/** A key by the hash of its secret, with its project and organization (revoked keys included; check `revokedAt`). */
export async function findApiKeyByHash(
  db: DatabaseClient,
  secretHash: string,
): Promise<(ApiKeyRecord & { project: ProjectRecord; organization: Pick<OrganizationRecord, "id" | "name" | "slug"> }) | null> {
  return db.prisma.apiKey.findUnique({
    where: { secretHash },
    include: { project: true, organization: { select: { id: true, name: true, slug: true } } },
  });
}

/**
 * Renames a key or changes its expiry/team. 404 when it is not in the organization, 409 when it
 * is revoked (a revoked key is evidence and stays as it was).
 */
export async function updateApiKey(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: { name?: string; expiresAt?: Date | null; teamId?: string | null; defaultMetadata?: Record<string, string> },
): Promise<ApiKeyRecord> {
  const updated = await translateWrite("api key", () => db.prisma.apiKey.updateMany({ where: { id, organizationId, revokedAt: null }, data: changes }));
  const key = await getApiKey(db, organizationId, id);
  if (!key) throw new GatewayError("not_found", { message: "api key not found" });
  if (updated.count === 0) throw new GatewayError("conflict", { message: "A revoked key cannot be changed." });
  return key;
}

/**
 * Revokes a key permanently, with the MCP tokens issued for it (they act as the key); the rows
 * stay as audit evidence. Revoking again keeps the first `revokedAt`/`revokedByUserId`;
 * `revoked` tells whether this call revoked it (false when it already was, so callers audit a
 * revocation once) and `before` is the row it revoked. 404 when the key is not in the
 * organization. With the raw driver (an open `Database`) it is one statement on PostgreSQL
 * ({@link revokeApiKeyStatement}); a Prisma transaction client takes the Prisma path.
 */
export async function revokeApiKey(
  db: DatabaseClient | (DatabaseClient & SqlClient),
  input: { organizationId: string; id: string; revokedByUserId?: string | null; now?: Date },
): Promise<ApiKeyRevocation> {
  const revocation = { revokedAt: input.now ?? new Date(), revokedByUserId: input.revokedByUserId ?? null };
  if ("queryStatement" in db) {
    const result = await revokeApiKeyStatement(db, { organizationId: input.organizationId, id: input.id, now: revocation.revokedAt, revokedByUserId: revocation.revokedByUserId });
    if (result === null) throw new GatewayError("not_found", { message: "api key not found" });
    return result;
  }
  const before = await getApiKey(db, input.organizationId, input.id);
  const result = await runInTransaction(db, async (transaction) => {
    const keys = await transaction.prisma.apiKey.updateMany({ where: { id: input.id, organizationId: input.organizationId, revokedAt: null }, data: revocation });
    await transaction.prisma.mcpToken.updateMany({ where: { apiKeyId: input.id, organizationId: input.organizationId, revokedAt: null }, data: revocation });
    return keys;
  });
  const key = await getApiKey(db, input.organizationId, input.id);
  if (!key) throw new GatewayError("not_found", { message: "api key not found" });
  return { apiKey: key, revoked: result.count > 0, before: result.count > 0 ? before : null };
}

/** Batched "last used" update (does not change the control-plane version). */
export async function touchApiKeysLastUsed(db: DatabaseClient, lastUsed: Map<string, Date>): Promise<void> {
  const byTime = new Map<number, string[]>();
  for (const [id, at] of lastUsed) byTime.set(at.getTime(), [...(byTime.get(at.getTime()) ?? []), id]);
  for (const [time, ids] of byTime) {
    // A column-level update only: the control-plane triggers ignore last_used_at/updated_at.
    await db.prisma.apiKey.updateMany({ where: { id: { in: ids } }, data: { lastUsedAt: new Date(time) } });
  }
}
