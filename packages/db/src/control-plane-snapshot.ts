import { connectionCredentialBinding } from "./secret-bindings.js";
import type {
  ControlPlaneConfiguration,
  ControlPlaneConfigurationPart,
  ControlPlaneSnapshot,
  ModelPrice,
  SnapshotApiKey,
  SnapshotMcpToken,
} from "@gateway/contracts";
import type { SecretBox } from "./secret-box.js";
import {
  connectionSettingsSchema,
  connectionTimeoutsSchema,
  modelEndpointsSchema,
  modelPriceRecordSchema,
  numberArraySchema,
  parseJsonColumn,
  routeTargetsSchema,
  stringArraySchema,
  stringRecordSchema,
} from "./json-values.js";
import { readControlPlaneVersion } from "./read-control-plane-version.js";
import { budgetCounterVersion } from "./budget-counter-version.js";
import {
  type SqlClient,
  sqlBoolean,
  sqlDate,
  sqlJson,
  sqlNullableNumber,
  sqlNullableString,
  sqlNumber,
  sqlPlaceholder,
} from "./sql-client.js";
import {
  CONNECTION_KINDS,
  ROUTE_STRATEGIES,
  POLICY_SCOPES,
  BUDGET_SCOPES,
  BUDGET_PERIODS,
  BUDGET_MODES,
  RATE_LIMIT_SCOPES,
  MCP_AUTH_KINDS,
  MCP_SERVER_STATUSES,
  MCP_TRANSPORTS,
  assertOneOf,
} from "./enums.js";
import { decodeMcpServerTokens } from "./mcp-server-grants.js";
import { parseStoredMetadata } from "./usage-event-rows.js";

/** Options of `loadControlPlaneSnapshot`. */
export interface LoadControlPlaneSnapshotOptions {
  /** Decrypts connection credentials (in memory only). */
  secretBox: SecretBox;
}

/** The snapshot's reads: plain SELECTs on the raw driver (same SQL on SQLite and PostgreSQL). */
const snapshotQueries = {
  organizations: 'SELECT "id", "name", "slug" FROM "organizations" ORDER BY "id"',
  projects: 'SELECT "id", "organization_id", "name", "capture_content", "content_max_bytes", "content_retention_days" FROM "projects" ORDER BY "id"',
  connections:
    'SELECT "id", "organization_id", "name", "kind", "base_url", "credential_ciphertext", "headers", "models", "upstream_model_names", "prices", "enabled", "logprobs", "default_max_tokens", "timeouts", "responses_api", "model_endpoints", "settings" FROM "connections" ORDER BY "organization_id", "name"',
  routes:
    'SELECT "id", "organization_id", "alias", "strategy", "targets", "affinity_enabled", "affinity_ttl_seconds", "retry_max_attempts" FROM "routes" ORDER BY "organization_id", "alias"',
  policies: 'SELECT "id", "organization_id", "scope", "scope_id", "allow", "deny", "guardrails" FROM "policies" ORDER BY "id"',
  budgets:
    'SELECT "id", "organization_id", "name", "scope", "scope_id", "amount_micros", "period", "mode", "thresholds", "updated_at", "spend_reset_period_key", "spend_reset_baseline_micros" FROM "budgets" ORDER BY "id"',
  rateLimits:
    'SELECT "id", "organization_id", "scope", "scope_id", "window_seconds", "requests_per_window", "tokens_per_window", "concurrency", "created_at" FROM "rate_limits" ORDER BY "id"',
  mcpServers:
    'SELECT "id", "organization_id", "name", "url", "transport", "auth_kind", "status", "tokens_ciphertext", "tokens_expires_at" FROM "mcp_servers" ORDER BY "organization_id", "name"',
} as const satisfies Record<ControlPlaneConfigurationPart, string>;

/** The per-key tables' reads, without ORDER BY (added per use: pages by id, or rows by id). */
const keyQueries = {
  apiKeys:
    'SELECT "id", "organization_id", "project_id", "team_id", "name", "secret_hash", "expires_at", "created_by_user_id", "default_metadata" FROM "api_keys" WHERE "revoked_at" IS NULL',
  // Only tokens the gateway issued to MCP clients (a hash and a key): grant records carry neither.
  mcpTokens:
    'SELECT "id", "organization_id", "api_key_id", "server_id", "user_id", "token_hash", "expires_at" FROM "mcp_tokens" WHERE "revoked_at" IS NULL AND "token_hash" IS NOT NULL AND "api_key_id" IS NOT NULL',
} as const;

/** The configuration parts, in snapshot order. */
const configurationParts = Object.keys(snapshotQueries) as ControlPlaneConfigurationPart[];

/** Row mappers of the configuration parts (stored JSON validated, credentials decrypted). */
const configurationMappers: {
  [Part in ControlPlaneConfigurationPart]: (row: Record<string, unknown>, options: LoadControlPlaneSnapshotOptions) => ControlPlaneConfiguration[Part][number];
} = {
  organizations: (row) => ({ id: String(row.id), name: String(row.name), slug: String(row.slug) }),
  projects: (row) => ({
    id: String(row.id),
    organizationId: String(row.organization_id),
    name: String(row.name),
    captureContent: sqlBoolean(row.capture_content),
    contentMaxBytes: sqlNumber(row.content_max_bytes),
    contentRetentionDays: sqlNumber(row.content_retention_days),
  }),
  connections: (row, options) => {
    const id = String(row.id);
    const name = String(row.name);
    const where = `connections ${id}`;
    let credential: string | null = null;
    if (row.credential_ciphertext !== null && row.credential_ciphertext !== undefined) {
      try {
        credential = options.secretBox.decrypt(String(row.credential_ciphertext), connectionCredentialBinding(String(row.organization_id), id));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw Object.assign(new Error(`connection "${name}" (${id}): ${message}`), { name: "SecretBoxError", cause: error });
      }
    }
    return {
      id,
      organizationId: String(row.organization_id),
      name,
      kind: assertOneOf(CONNECTION_KINDS, String(row.kind), `${where} kind`),
      baseUrl: sqlNullableString(row.base_url),
      credential,
      headers: parseJsonColumn(stringRecordSchema, jsonColumn(row.headers, `${where} headers`), `${where} headers`),
      models: parseJsonColumn(stringArraySchema, jsonColumn(row.models, `${where} models`), `${where} models`),
      upstreamModelNames: parseJsonColumn(
        stringRecordSchema,
        jsonColumn(row.upstream_model_names, `${where} upstream_model_names`),
        `${where} upstream_model_names`,
      ),
      enabled: sqlBoolean(row.enabled),
      prices: parseJsonColumn(modelPriceRecordSchema, jsonColumn(row.prices, `${where} prices`), `${where} prices`) as Record<string, ModelPrice>,
      logprobs: row.logprobs === null || row.logprobs === undefined ? null : sqlBoolean(row.logprobs),
      defaultMaxTokens: sqlNullableNumber(row.default_max_tokens),
      timeouts:
        row.timeouts === null || row.timeouts === undefined
          ? {}
          : parseJsonColumn(connectionTimeoutsSchema, jsonColumn(row.timeouts, `${where} timeouts`), `${where} timeouts`),
      responsesApi: row.responses_api === null || row.responses_api === undefined ? null : sqlBoolean(row.responses_api),
      modelEndpoints:
        row.model_endpoints === null || row.model_endpoints === undefined
          ? {}
          : parseJsonColumn(modelEndpointsSchema, jsonColumn(row.model_endpoints, `${where} model_endpoints`), `${where} model_endpoints`),
      settings:
        row.settings === null || row.settings === undefined
          ? {}
          : parseJsonColumn(connectionSettingsSchema, jsonColumn(row.settings, `${where} settings`), `${where} settings`),
    };
  },
  routes: (row) => {
    const where = `routes ${String(row.id)}`;
    return {
      id: String(row.id),
      organizationId: String(row.organization_id),
      alias: String(row.alias),
      strategy: assertOneOf(ROUTE_STRATEGIES, String(row.strategy), `${where} strategy`),
      targets: parseJsonColumn(routeTargetsSchema, jsonColumn(row.targets, `${where} targets`), `${where} targets`),
      affinity: { enabled: sqlBoolean(row.affinity_enabled), ttlSeconds: sqlNumber(row.affinity_ttl_seconds) },
      retry: { maxAttempts: Math.max(1, sqlNumber(row.retry_max_attempts)) },
    };
  },
  policies: (row) => {
    const where = `policies ${String(row.id)}`;
    return {
      id: String(row.id),
      organizationId: String(row.organization_id),
      scope: assertOneOf(POLICY_SCOPES, String(row.scope), `${where} scope`),
      scopeId: String(row.scope_id),
      allow: parseJsonColumn(stringArraySchema, jsonColumn(row.allow, `${where} allow`), `${where} allow`),
      deny: parseJsonColumn(stringArraySchema, jsonColumn(row.deny, `${where} deny`), `${where} deny`),
      guardrails: jsonColumn(row.guardrails, `${where} guardrails`),
    };
  },
  budgets: (row) => {
    const where = `budgets ${String(row.id)}`;
    return {
      id: String(row.id),
      organizationId: String(row.organization_id),
      name: String(row.name),
      scope: assertOneOf(BUDGET_SCOPES, String(row.scope), `${where} scope`),
      scopeId: String(row.scope_id),
      amountMicros: sqlNumber(row.amount_micros),
      period: assertOneOf(BUDGET_PERIODS, String(row.period), `${where} period`),
      mode: assertOneOf(BUDGET_MODES, String(row.mode), `${where} mode`),
      thresholds: parseJsonColumn(numberArraySchema, jsonColumn(row.thresholds, `${where} thresholds`), `${where} thresholds`),
      counterVersion: budgetCounterVersion(sqlDate(row.updated_at) ?? new Date(0)),
      spendReset:
        row.spend_reset_period_key === null || row.spend_reset_period_key === undefined
          ? null
          : { periodKey: String(row.spend_reset_period_key), baselineMicros: sqlNumber(row.spend_reset_baseline_micros ?? 0) },
    };
  },
  rateLimits: (row) => ({
    id: String(row.id),
    organizationId: String(row.organization_id),
    scope: assertOneOf(RATE_LIMIT_SCOPES, String(row.scope), `rate_limits ${String(row.id)} scope`),
    scopeId: String(row.scope_id),
    windowSeconds: sqlNumber(row.window_seconds),
    requestsPerWindow: sqlNullableNumber(row.requests_per_window),
    tokensPerWindow: sqlNullableNumber(row.tokens_per_window),
    concurrency: sqlNullableNumber(row.concurrency),
    createdAt: sqlDate(row.created_at) ?? new Date(0),
  }),
  mcpServers: (row, options) => {
    const id = String(row.id);
    const name = String(row.name);
    const where = `mcp_servers ${id}`;
    let accessToken: string | null = null;
    if (row.tokens_ciphertext !== null && row.tokens_ciphertext !== undefined) {
      try {
        accessToken = decodeMcpServerTokens(String(row.tokens_ciphertext), options.secretBox).accessToken || null;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw Object.assign(new Error(`MCP server "${name}" (${id}): ${message}`), { name: "SecretBoxError", cause: error });
      }
    }
    return {
      id,
      organizationId: String(row.organization_id),
      name,
      url: String(row.url),
      transport: assertOneOf(MCP_TRANSPORTS, String(row.transport), `${where} transport`),
      authKind: assertOneOf(MCP_AUTH_KINDS, String(row.auth_kind), `${where} auth_kind`),
      status: assertOneOf(MCP_SERVER_STATUSES, String(row.status), `${where} status`),
      accessToken,
      accessTokenExpiresAt: sqlDate(row.tokens_expires_at),
    };
  },
};

/** Maps an `api_keys` row (revoked ones are never selected). */
function apiKeyMapper(row: Record<string, unknown>): SnapshotApiKey {
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    projectId: String(row.project_id),
    teamId: sqlNullableString(row.team_id),
    name: String(row.name),
    secretHash: String(row.secret_hash),
    expiresAt: sqlDate(row.expires_at),
    createdByUserId: sqlNullableString(row.created_by_user_id),
    defaultMetadata: snapshotMetadata(row.default_metadata),
  };
}

/** Maps an `mcp_tokens` row. */
function mcpTokenMapper(row: Record<string, unknown>): SnapshotMcpToken {
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    apiKeyId: String(row.api_key_id),
    serverId: sqlNullableString(row.server_id),
    userId: sqlNullableString(row.user_id),
    tokenHash: String(row.token_hash),
    expiresAt: sqlDate(row.expires_at),
  };
}

/**
 * Loads the whole control plane with plain SELECTs on the raw driver (no Prisma: the gateway
 * process loads snapshots without the ORM runtime). MCP servers come with their access tokens
 * decrypted (in memory only) and MCP tokens with their hashes. The version is read FIRST: a change that
 * lands while the rest is read makes the version move again, so the next poll reloads (never a
 * stale snapshot labelled as current). Revoked keys are left out (expired ones stay: the
 * gateway refuses them by `expiresAt`). Stored JSON is validated and a bad value throws naming
 * the table, row and column. A credential that cannot be decrypted throws a `SecretBoxError`
 * naming the connection (not the secret).
 */
export async function loadControlPlaneSnapshot(db: SqlClient, options: LoadControlPlaneSnapshotOptions): Promise<ControlPlaneSnapshot> {
  const version = await readControlPlaneVersion(db);
  const [parts, apiKeys, mcpTokens] = await Promise.all([
  loadControlPlaneParts(db, configurationParts, options),
  db.queryStatement({ sql: `${keyQueries.apiKeys} ORDER BY "id"`, args: [] }),
  db.queryStatement({ sql: `${keyQueries.mcpTokens} ORDER BY "id"`, args: [] }),
  ]);
  return { version, ...(parts as Omit<ControlPlaneConfiguration, "version">), apiKeys: apiKeys.map(apiKeyMapper), mcpTokens: mcpTokens.map(mcpTokenMapper) };
}

/**
 * Loads the configuration (the snapshot without API keys and MCP tokens), version first as
 * {@link loadControlPlaneSnapshot} does. Gateways load the keys page by page beside it
 * ({@link loadActiveApiKeys}) so that no full key list is ever held twice.
 */
export async function loadControlPlaneConfiguration(db: SqlClient, options: LoadControlPlaneSnapshotOptions): Promise<ControlPlaneConfiguration> {
  const version = await readControlPlaneVersion(db);
  const parts = await loadControlPlaneParts(db, configurationParts, options);
  return { version, ...(parts as Omit<ControlPlaneConfiguration, "version">) };
}

/** Loads some configuration parts (the tables a change named), with the same validation. */
export async function loadControlPlaneParts(
  db: SqlClient,
  parts: readonly ControlPlaneConfigurationPart[],
  options: LoadControlPlaneSnapshotOptions,
): Promise<Partial<Omit<ControlPlaneConfiguration, "version">>> {
  const rows = await Promise.all(parts.map((part) => db.queryStatement({ sql: snapshotQueries[part], args: [] })));
  const result: Partial<Record<ControlPlaneConfigurationPart, unknown[]>> = {};
  parts.forEach((part, index) => {
  const mapper = configurationMappers[part] as (row: Record<string, unknown>, options: LoadControlPlaneSnapshotOptions) => unknown;
  result[part] = rows[index]!.map((row) => mapper(row, options));
  });
  return result as Partial<Omit<ControlPlaneConfiguration, "version">>;
}

/** Which rows of a per-key table to load: a page in id order, or the rows of some ids. */
export type KeyRowSelection = { afterId: string | null; limit: number } | { ids: readonly string[] };

/** Ids per `IN (...)` list (well under SQLite's and PostgreSQL's parameter limits). */
const idsPerQuery = 500;

async function loadKeyRows(db: SqlClient, baseSql: string, selection: KeyRowSelection): Promise<Record<string, unknown>[]> {
  if ("ids" in selection) {
  const rows: Record<string, unknown>[] = [];
  for (let start = 0; start < selection.ids.length; start += idsPerQuery) {
    const ids = selection.ids.slice(start, start + idsPerQuery);
    const placeholders = ids.map((_, index) => sqlPlaceholder(db.provider, index + 1)).join(", ");
    rows.push(...(await db.queryStatement({ sql: `${baseSql} AND "id" IN (${placeholders})`, args: [...ids] })));
  }
  return rows;
  }
  const limit = Math.max(1, Math.floor(selection.limit));
  if (selection.afterId === null) return db.queryStatement({ sql: `${baseSql} ORDER BY "id" LIMIT ${limit}`, args: [] });
  return db.queryStatement({ sql: `${baseSql} AND "id" > ${sqlPlaceholder(db.provider, 1)} ORDER BY "id" LIMIT ${limit}`, args: [selection.afterId] });
}

/**
 * Active (not revoked) API keys: a page in id order (`afterId` null for the first) or the
 * rows of some ids (a change's ids: an id that is missing was deleted or revoked). Expired
 * keys are included (the gateway refuses them by `expiresAt`).
 */
export async function loadActiveApiKeys(db: SqlClient, selection: KeyRowSelection): Promise<SnapshotApiKey[]> {
  return (await loadKeyRows(db, keyQueries.apiKeys, selection)).map(apiKeyMapper);
}

/** Active MCP tokens issued to MCP clients, selected as {@link loadActiveApiKeys} does. */
export async function loadActiveMcpTokens(db: SqlClient, selection: KeyRowSelection): Promise<SnapshotMcpToken[]> {
  return (await loadKeyRows(db, keyQueries.mcpTokens, selection)).map(mcpTokenMapper);
}

/** A Json column's value; text that is not JSON (a hand edit) throws naming where it is. */
function jsonColumn(value: unknown, where: string): unknown {
  try {
  return sqlJson(value);
  } catch {
  throw new Error(`invalid stored JSON in ${where}: not JSON text`);
  }
}

const NO_METADATA: Readonly<Record<string, string>> = Object.freeze({});

/** A key's default metadata; keys without any share one frozen empty object. */
function snapshotMetadata(value: unknown): Readonly<Record<string, string>> {
  if (value === null || value === undefined || value === "{}") return NO_METADATA;
  const metadata = parseStoredMetadata(value);
  return Object.keys(metadata).length === 0 ? NO_METADATA : Object.freeze(metadata);
}
