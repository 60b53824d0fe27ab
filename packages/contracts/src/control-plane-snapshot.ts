import type { ConnectionKind } from "./connection-kind.js";
import type { McpAuthKind, McpTransport } from "./mcp-server-kinds.js";
import type { ConnectionTimeouts } from "./connection-timeouts.js";
import type { ModelEndpoint } from "./model-endpoint.js";
import type { ModelPrice } from "./model-price.js";

/**
 * The control-plane snapshot: everything the data plane needs to authenticate, authorise,
 * route and admit a call, as plain data. `@gateway/db` loads it; the pipeline keeps it in
 * memory so that no request reads the database.
 */
export interface ControlPlaneSnapshot {
  /** Changes whenever any control-plane row changes. */
  version: string;
  organizations: SnapshotOrganization[];
  projects: SnapshotProject[];
  /** Only keys that are not revoked. */
  apiKeys: SnapshotApiKey[];
  connections: SnapshotConnection[];
  routes: SnapshotRoute[];
  policies: SnapshotPolicy[];
  budgets: SnapshotBudget[];
  rateLimits: SnapshotRateLimit[];
  /** Registered MCP servers (every status: the gateway serves only connected ones). */
  mcpServers: SnapshotMcpServer[];
  /** MCP tokens the gateway issued to MCP clients that are not revoked (they may still be expired). */
  mcpTokens: SnapshotMcpToken[];
}

/**
 * The snapshot without its per-key tables (`apiKeys`, `mcpTokens`): the part that is small
 * (organizations, projects, connections, routes, policies, budgets, limits, MCP servers) and
 * rebuilt whole when one of its tables changes, while the key maps are changed row by row.
 */
export type ControlPlaneConfiguration = Omit<ControlPlaneSnapshot, "apiKeys" | "mcpTokens">;

/** The tables of {@link ControlPlaneConfiguration}, by their snapshot field. */
export type ControlPlaneConfigurationPart = Exclude<keyof ControlPlaneConfiguration, "version">;

/**
 * One control-plane change as the database logs and announces it: the version it produced,
 * the table (`api_keys`, `policies`, ...) and the changed rows' ids (null: too many to list,
 * reload that table whole).
 */
export interface ControlPlaneChange {
  version: string;
  table: string;
  ids: readonly string[] | null;
}

/** An organization of the snapshot. */
export interface SnapshotOrganization {
  id: string;
  name: string;
  slug: string;
}

/** A project of the snapshot. */
export interface SnapshotProject {
  id: string;
  organizationId: string;
  name: string;
  captureContent: boolean;
  /** Captured bytes per call (default 65536). */
  contentMaxBytes?: number;
  /** Days captured content is kept (default 7). */
  contentRetentionDays?: number;
}

/** A gateway API key that is not revoked (it may still be expired). */
export interface SnapshotApiKey {
  id: string;
  organizationId: string;
  projectId: string;
  teamId: string | null;
  name: string;
  /** Hex SHA-256 of the full `gak_` secret. */
  secretHash: string;
  expiresAt: Date | null;
  createdByUserId: string | null;
  /** Metadata recorded with every call of the key; `X-Gateway-Metadata` is merged over it. */
  defaultMetadata?: Readonly<Record<string, string>>;
}

/** A provider connection; `credential` is decrypted in memory only. */
export interface SnapshotConnection {
  id: string;
  organizationId: string;
  /** Unique per organization; the `<provider>` segment of qualified model ids. */
  name: string;
  kind: ConnectionKind;
  baseUrl: string | null;
  credential: string | null;
  headers: Record<string, string>;
  /** Served `<vendor>/<model>` ids. */
  models: string[];
  /** Optional `<vendor>/<model>` -> upstream model name overrides. */
  upstreamModelNames: Record<string, string>;
  enabled: boolean;
  /** Keyed by `<vendor>/<model>`. */
  prices: Record<string, ModelPrice>;
  /**
   * `openai` connections: `false` when the upstream rejects `logprobs` (reasoning models, some
   * compatible servers), so decisions use stated probabilities; null: measured log-probabilities.
   */
  logprobs: boolean | null;
  /**
   * `anthropic` connections: `max_tokens` sent when a translated OpenAI-format request sets
   * no output cap (Anthropic requires one); null: the adapter's default (4096).
   */
  defaultMaxTokens: number | null;
  /** Upstream timeouts of this connection; absent fields take the global settings. */
  timeouts: ConnectionTimeouts;
  /**
   * `openai` connections: whether the upstream serves the Responses API (`POST /responses`):
   * true: `/v1/responses` calls of models that answer `responses` are sent natively; false: they
   * are translated to chat completions; null: native when the base URL is OpenAI's own API
   * (`https://api.openai.com/...`, also when unset), translated for any other server.
   */
  responsesApi: boolean | null;
  /**
   * What each served model answers, keyed by `<vendor>/<model>`. A model left out answers
   * `embeddings` when its name contains `embed`, else `chat` and `responses`.
   */
  modelEndpoints: Record<string, ModelEndpoint[]>;
  /**
   * The provider's own settings (Azure deployments and API version, Bedrock region, Vertex
   * project and location, ...), parsed by the provider's settings schema; no secrets (the
   * credential carries those). Absent or empty for providers without settings of their own.
   */
  settings?: Readonly<Record<string, unknown>>;
}

/** A routing alias with its ordered provider-qualified targets. */
export interface SnapshotRoute {
  id: string;
  organizationId: string;
  alias: string;
  strategy: "priority" | "weighted" | "least-latency";
  targets: { model: string; weight: number }[];
  affinity: { enabled: boolean; ttlSeconds: number };
  /** Attempts per target, >= 1. */
  retry: { maxAttempts: number };
}

/** A model policy (glob allow/deny lists and guardrails) at one scope. */
export interface SnapshotPolicy {
  id: string;
  organizationId: string;
  scope: "organization" | "project" | "key";
  scopeId: string;
  allow: string[];
  deny: string[];
  /** JSON validated by `@gateway/policy-engine`. */
  guardrails: unknown;
}

/** A budget at one scope. */
export interface SnapshotBudget {
  id: string;
  organizationId: string;
  name: string;
  scope: "organization" | "project" | "key" | "team";
  scopeId: string;
  /** USD * 1e6. */
  amountMicros: number;
  period: "day" | "week" | "month" | "total";
  mode: "hard" | "soft";
  /** Soft budgets: fractions like 0.5, 0.8, 1. */
  thresholds: number[];
  /** The budget's counter generation (its `updated_at` in epoch ms): a change starts a counter seeded from recorded usage. */
  counterVersion?: string;
  /** The last spend reset: in period `periodKey`, `baselineMicros` of recorded spend no longer count. */
  spendReset?: { periodKey: string; baselineMicros: number } | null;
}

/** A rate limit at one scope. */
export interface SnapshotRateLimit {
  id: string;
  organizationId: string;
  scope: "project" | "key";
  scopeId: string;
  windowSeconds: number;
  requestsPerWindow: number | null;
  tokensPerWindow: number | null;
  concurrency: number | null;
  /** When the limit was created: a window rebuilt from recorded usage never counts calls from before it. */
  createdAt?: Date;
}

/** An MCP server registered by an organization; its access token is decrypted in memory only. */
export interface SnapshotMcpServer {
  id: string;
  organizationId: string;
  /** Unique per organization; the `<server>` part of the tool names the gateway serves. */
  name: string;
  url: string;
  transport: McpTransport;
  authKind: McpAuthKind;
  status: "pending" | "connected" | "error" | "disconnected";
  /** The bearer token or OAuth access token sent upstream; null when none is stored. */
  accessToken: string | null;
  /** When the OAuth access token expires; null when unknown or never. */
  accessTokenExpiresAt: Date | null;
}

/**
 * An MCP token the gateway issued to an MCP client (a desktop assistant, an IDE): it acts as
 * its API key on the MCP endpoint only, optionally narrowed to one server.
 */
export interface SnapshotMcpToken {
  id: string;
  organizationId: string;
  /** The API key the token acts as (its project, policies, rate limits and budgets apply). */
  apiKeyId: string;
  /** Only this server's tools, prompts and resources; null: every server the key may use. */
  serverId: string | null;
  /** The user it was issued to. */
  userId: string | null;
  /** Hex SHA-256 of the full `gmt_` secret. */
  tokenHash: string;
  expiresAt: Date | null;
}
