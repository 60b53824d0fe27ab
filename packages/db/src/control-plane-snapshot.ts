import type { DatabaseClient } from "./create-database.js";
import type { SecretBox } from "./secret-box.js";
import {
  modelPriceRecordSchema,
  numberArraySchema,
  parseJsonColumn,
  routeTargetsSchema,
  stringArraySchema,
  stringRecordSchema,
} from "./json-values.js";
import { readControlPlaneVersion } from "./read-control-plane-version.js";
import { CONNECTION_KINDS, ROUTE_STRATEGIES, POLICY_SCOPES, BUDGET_SCOPES, BUDGET_PERIODS, BUDGET_MODES, RATE_LIMIT_SCOPES, assertOneOf } from "./enums.js";

/** USD per million tokens. Same shape as `@gateway/pipeline`'s `ModelPrice`. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  maxOutputTokens?: number;
  contextWindow?: number;
}

/**
 * Everything the gateway enforces, as plain data. Structurally identical to
 * `@gateway/pipeline`'s `ControlPlaneSnapshot` (see /work/coordination.md).
 */
export interface ControlPlaneSnapshot {
  version: string;
  organizations: { id: string; name: string; slug: string }[];
  projects: { id: string; organizationId: string; name: string; captureContent: boolean }[];
  apiKeys: {
    id: string;
    organizationId: string;
    projectId: string;
    teamId: string | null;
    name: string;
    secretHash: string;
    expiresAt: Date | null;
    createdByUserId: string | null;
  }[];
  connections: {
    id: string;
    organizationId: string;
    name: string;
    kind: "openai" | "anthropic" | "systemone" | "demo";
    baseUrl: string | null;
    credential: string | null;
    headers: Record<string, string>;
    models: string[];
    upstreamModelNames: Record<string, string>;
    enabled: boolean;
    prices: Record<string, ModelPrice>;
  }[];
  routes: {
    id: string;
    organizationId: string;
    alias: string;
    strategy: "priority" | "weighted" | "least-latency";
    targets: { model: string; weight: number }[];
    affinity: { enabled: boolean; ttlSeconds: number };
    retry: { maxAttempts: number };
  }[];
  policies: {
    id: string;
    organizationId: string;
    scope: "organization" | "project" | "key";
    scopeId: string;
    allow: string[];
    deny: string[];
    guardrails: unknown;
  }[];
  budgets: {
    id: string;
    organizationId: string;
    name: string;
    scope: "organization" | "project" | "key" | "team";
    scopeId: string;
    amountMicros: number;
    period: "day" | "week" | "month" | "total";
    mode: "hard" | "soft";
    thresholds: number[];
  }[];
  rateLimits: {
    id: string;
    organizationId: string;
    scope: "project" | "key";
    scopeId: string;
    windowSeconds: number;
    requestsPerWindow: number | null;
    tokensPerWindow: number | null;
    concurrency: number | null;
  }[];
}

/** Options of `loadControlPlaneSnapshot`. */
export interface LoadControlPlaneSnapshotOptions {
  /** Decrypts connection credentials (in memory only). */
  secretBox: SecretBox;
}

/**
 * Loads the whole control plane. The version is read FIRST: a change that lands while the rest
 * is read makes the version move again, so the next poll reloads (never a stale snapshot labelled
 * as current). Revoked keys are left out (expired ones stay: the gateway refuses them by
 * `expiresAt`). A credential that cannot be decrypted throws a `SecretBoxError` naming the
 * connection (not the secret).
 */
export async function loadControlPlaneSnapshot(db: DatabaseClient, options: LoadControlPlaneSnapshotOptions): Promise<ControlPlaneSnapshot> {
  const version = await readControlPlaneVersion(db);
  const prisma = db.prisma;
  const [organizations, projects, apiKeys, connections, routes, policies, budgets, rateLimits] = await Promise.all([
    prisma.organization.findMany({ select: { id: true, name: true, slug: true }, orderBy: { id: "asc" } }),
    prisma.project.findMany({ select: { id: true, organizationId: true, name: true, captureContent: true }, orderBy: { id: "asc" } }),
    prisma.apiKey.findMany({
      where: { revokedAt: null },
      select: { id: true, organizationId: true, projectId: true, teamId: true, name: true, secretHash: true, expiresAt: true, createdByUserId: true },
      orderBy: { id: "asc" },
    }),
    prisma.connection.findMany({ orderBy: [{ organizationId: "asc" }, { name: "asc" }] }),
    prisma.route.findMany({ orderBy: [{ organizationId: "asc" }, { alias: "asc" }] }),
    prisma.policy.findMany({ orderBy: { id: "asc" } }),
    prisma.budget.findMany({ orderBy: { id: "asc" } }),
    prisma.rateLimit.findMany({ orderBy: { id: "asc" } }),
  ]);
  return {
    version,
    organizations,
    projects,
    apiKeys,
    connections: connections.map((row) => {
      const where = `connections ${row.id}`;
      let credential: string | null = null;
      if (row.credentialCiphertext !== null) {
        try {
          credential = options.secretBox.decrypt(row.credentialCiphertext);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          throw Object.assign(new Error(`connection "${row.name}" (${row.id}): ${message}`), { name: "SecretBoxError", cause: error });
        }
      }
      return {
        id: row.id,
        organizationId: row.organizationId,
        name: row.name,
        kind: assertOneOf(CONNECTION_KINDS, row.kind, `${where} kind`),
        baseUrl: row.baseUrl,
        credential,
        headers: parseJsonColumn(stringRecordSchema, row.headers, `${where} headers`),
        models: parseJsonColumn(stringArraySchema, row.models, `${where} models`),
        upstreamModelNames: parseJsonColumn(stringRecordSchema, row.upstreamModelNames, `${where} upstream_model_names`),
        enabled: row.enabled,
        prices: parseJsonColumn(modelPriceRecordSchema, row.prices, `${where} prices`) as Record<string, ModelPrice>,
      };
    }),
    routes: routes.map((row) => ({
      id: row.id,
      organizationId: row.organizationId,
      alias: row.alias,
      strategy: assertOneOf(ROUTE_STRATEGIES, row.strategy, `routes ${row.id} strategy`),
      targets: parseJsonColumn(routeTargetsSchema, row.targets, `routes ${row.id} targets`),
      affinity: { enabled: row.affinityEnabled, ttlSeconds: row.affinityTtlSeconds },
      retry: { maxAttempts: Math.max(1, row.retryMaxAttempts) },
    })),
    policies: policies.map((row) => ({
      id: row.id,
      organizationId: row.organizationId,
      scope: assertOneOf(POLICY_SCOPES, row.scope, `policies ${row.id} scope`),
      scopeId: row.scopeId,
      allow: parseJsonColumn(stringArraySchema, row.allow, `policies ${row.id} allow`),
      deny: parseJsonColumn(stringArraySchema, row.deny, `policies ${row.id} deny`),
      guardrails: row.guardrails,
    })),
    budgets: budgets.map((row) => ({
      id: row.id,
      organizationId: row.organizationId,
      name: row.name,
      scope: assertOneOf(BUDGET_SCOPES, row.scope, `budgets ${row.id} scope`),
      scopeId: row.scopeId,
      amountMicros: Number(row.amountMicros),
      period: assertOneOf(BUDGET_PERIODS, row.period, `budgets ${row.id} period`),
      mode: assertOneOf(BUDGET_MODES, row.mode, `budgets ${row.id} mode`),
      thresholds: parseJsonColumn(numberArraySchema, row.thresholds, `budgets ${row.id} thresholds`),
    })),
    rateLimits: rateLimits.map((row) => ({
      id: row.id,
      organizationId: row.organizationId,
      scope: assertOneOf(RATE_LIMIT_SCOPES, row.scope, `rate_limits ${row.id} scope`),
      scopeId: row.scopeId,
      windowSeconds: row.windowSeconds,
      requestsPerWindow: row.requestsPerWindow,
      tokensPerWindow: row.tokensPerWindow,
      concurrency: row.concurrency,
    })),
  };
}
