import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { maxRateLimitConcurrency, maxRateLimitPerWindow, maxRateLimitWindowSeconds } from "./control-plane-bounds.js";
import { RATE_LIMIT_SCOPES } from "./enums.js";
import { holdsValues, requireOneOf, translateWrite } from "./repository-support.js";

export interface RateLimitRecord {
  id: string;
  organizationId: string;
  scope: (typeof RATE_LIMIT_SCOPES)[number];
  scopeId: string;
  windowSeconds: number;
  requestsPerWindow: number | null;
  tokensPerWindow: number | null;
  concurrency: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RateLimitInput {
  organizationId: string;
  scope: string;
  scopeId: string;
  windowSeconds: number;
  requestsPerWindow?: number | null;
  tokensPerWindow?: number | null;
  concurrency?: number | null;
}

type RateLimitRow = Awaited<ReturnType<DatabaseClient["prisma"]["rateLimit"]["findFirstOrThrow"]>>;
const toRecord = (row: RateLimitRow): RateLimitRecord => ({ ...row, scope: requireOneOf(RATE_LIMIT_SCOPES, row.scope, "scope") });

function bounded(value: number | null | undefined, maximum: number, param: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Number.isSafeInteger(value) || value < 1 || value > maximum) {
    throw new GatewayError("invalid_request", { message: `${param} must be an integer from 1 to ${maximum}`, param });
  }
  return value;
}

function toData(input: Partial<Omit<RateLimitInput, "organizationId">>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (input.scope !== undefined) data.scope = requireOneOf(RATE_LIMIT_SCOPES, input.scope, "scope");
  if (input.scopeId !== undefined) data.scopeId = input.scopeId;
  if (input.windowSeconds !== undefined) data.windowSeconds = bounded(input.windowSeconds, maxRateLimitWindowSeconds, "window_seconds");
  if (input.requestsPerWindow !== undefined) data.requestsPerWindow = bounded(input.requestsPerWindow, maxRateLimitPerWindow, "requests_per_window");
  if (input.tokensPerWindow !== undefined) data.tokensPerWindow = bounded(input.tokensPerWindow, maxRateLimitPerWindow, "tokens_per_window");
  if (input.concurrency !== undefined) data.concurrency = bounded(input.concurrency, maxRateLimitConcurrency, "concurrency");
  return data;
}

function createData(input: RateLimitInput) {
  return { ...toData(input), organizationId: input.organizationId } as Parameters<DatabaseClient["prisma"]["rateLimit"]["create"]>[0]["data"];
}

/** Creates a rate limit; 409 when (scope, scopeId, windowSeconds) already has one. */
export async function createRateLimit(db: DatabaseClient, input: RateLimitInput): Promise<RateLimitRecord> {
  return toRecord(await translateWrite("rate limit for this scope and window", () => db.prisma.rateLimit.create({ data: createData(input) })));
}

/** Declarative config: creates or replaces the limit of (organization, scope, scopeId, windowSeconds). */
export async function upsertRateLimit(db: DatabaseClient, input: RateLimitInput): Promise<RateLimitRecord> {
  const data = createData(input);
  const where = {
    organizationId_scope_scopeId_windowSeconds: { organizationId: input.organizationId, scope: data.scope, scopeId: input.scopeId, windowSeconds: input.windowSeconds },
  };
  const update = { requestsPerWindow: input.requestsPerWindow ?? null, tokensPerWindow: input.tokensPerWindow ?? null, concurrency: input.concurrency ?? null };
  const existing = await db.prisma.rateLimit.findUnique({ where });
  if (existing && holdsValues(existing, update)) return toRecord(existing);
  return toRecord(await db.prisma.rateLimit.upsert({ where, create: data, update }));
}

export async function listRateLimits(db: DatabaseClient, organizationId: string): Promise<RateLimitRecord[]> {
  return (await db.prisma.rateLimit.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

export async function getRateLimit(db: DatabaseClient, organizationId: string, id: string): Promise<RateLimitRecord | null> {
  const row = await db.prisma.rateLimit.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

export async function updateRateLimit(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: Partial<Omit<RateLimitInput, "organizationId">>,
): Promise<RateLimitRecord> {
  return toRecord(await translateWrite("rate limit", () => db.prisma.rateLimit.update({ where: { id, organizationId }, data: toData(changes) })));
}

export async function deleteRateLimit(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("rate limit", () => db.prisma.rateLimit.delete({ where: { id, organizationId } }));
}
