import { z } from "zod";

const integer = (minimum: number) => z.coerce.number().int().min(minimum);

/** The environment variables of the gateway, with their documented defaults. */
const settingsSchema = z.object({
  GATEWAY_PORT: integer(0).max(65_535).default(8080),
  GATEWAY_HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z.string().min(1).optional(),
  GATEWAY_DATA_DIR: z.string().min(1).default("./data"),
  GATEWAY_CONFIG: z.string().min(1).optional(),
  REDIS_URL: z.string().min(1).optional(),
  GATEWAY_REDIS_KEY_PREFIX: z.string().min(1).max(100).default("gateway:"),
  GATEWAY_REDIS_FAILURE_MODE_BUDGETS: z.enum(["closed", "open"]).default("closed"),
  GATEWAY_REDIS_FAILURE_MODE_RATE_LIMITS: z.enum(["open", "closed"]).default("open"),
  GATEWAY_DELIVERY_FLUSH_MS: integer(10).default(1000),
  GATEWAY_DELIVERY_TIMEOUT_MS: integer(100).default(5000),
  GATEWAY_DELIVERY_MAX_ATTEMPTS: integer(1).max(20).default(5),
  GATEWAY_DELIVERY_QUEUE_SIZE: integer(1).default(10_000),
  GATEWAY_DELIVERY_REFRESH_MS: integer(1000).default(30_000),
  GATEWAY_BODY_LIMIT_BYTES: integer(1).default(10 * 1024 * 1024),
  GATEWAY_REQUEST_TIMEOUT_MS: integer(1).default(600_000),
  GATEWAY_KEEP_ALIVE_TIMEOUT_MS: integer(1000).max(3_600_000).default(65_000),
  GATEWAY_HEADERS_TIMEOUT_MS: integer(1000).default(20_000),
  GATEWAY_WRITE_TIMEOUT_MS: integer(0).default(30_000),
  GATEWAY_MAX_CONNECTIONS: integer(1).optional(),
  GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: integer(1).default(1_000),
  GATEWAY_JSON_MAX_VALUES: integer(1).default(300_000),
  GATEWAY_JSON_MAX_OBJECT_KEYS: integer(1).default(1_000),
  GATEWAY_JSON_MAX_ARRAY_ELEMENTS: integer(1).default(300_000),
  GATEWAY_MCP_BODY_LIMIT_BYTES: integer(1).default(4 * 1024 * 1024),
  GATEWAY_MCP_RESULT_LIMIT_BYTES: integer(1).default(4 * 1024 * 1024),
  GATEWAY_UPSTREAM_TIMEOUT_MS: integer(1).default(300_000),
  GATEWAY_UPSTREAM_CONNECT_TIMEOUT_MS: integer(1).default(10_000),
  GATEWAY_STREAM_FIRST_BYTE_TIMEOUT_MS: integer(1).default(300_000),
  GATEWAY_STREAM_IDLE_TIMEOUT_MS: integer(1).default(120_000),
  GATEWAY_STREAM_MAX_DURATION_MS: integer(0).default(0),
  GATEWAY_RESPONSES_RETENTION_DAYS: integer(1).max(3650).default(30),
  GATEWAY_SNAPSHOT_POLL_MS: integer(10).max(1000).default(300),
  GATEWAY_SNAPSHOT_FULL_RELOAD_MS: integer(0).default(600_000),
  GATEWAY_MCP_TIMEOUT_MS: integer(1).default(60_000),
  GATEWAY_MCP_LIST_TIMEOUT_MS: integer(1).default(10_000),
  GATEWAY_MCP_CATALOG_TTL_MS: integer(0).default(10_000),
  GATEWAY_MCP_ALLOWED_ORIGINS: z.string().default(""),
  GATEWAY_OUTBOUND_PRIVATE_ADDRESSES: z.enum(["allow", "deny"]).default("allow"),
  GATEWAY_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  GATEWAY_POSTGRES_LISTEN: z.enum(["on", "off"]).default("on"),
  GATEWAY_USAGE_BATCH_SIZE: integer(1).optional(),
  GATEWAY_USAGE_FLUSH_MS: integer(10).default(1000),
  GATEWAY_USAGE_DURABILITY: z.enum(["memory", "journal"]).default("memory"),
  GATEWAY_USAGE_JOURNAL_SYNC_MS: integer(1).max(60_000).default(100),
  GATEWAY_USAGE_WRITER_THREAD: z.enum(["on", "off"]).default("on"),
  GATEWAY_SHUTDOWN_TIMEOUT_MS: integer(0).default(10_000),
  GATEWAY_HEAP_GROWING_PERCENT: integer(0).max(400).default(30),
  GATEWAY_LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  GATEWAY_LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  GATEWAY_METRICS_PORT: z.union([z.literal("off"), integer(0).max(65_535)]).default(9464),
  GATEWAY_METRICS_HOST: z.string().min(1).optional(),
  GATEWAY_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  GATEWAY_TRACES: z.enum(["on", "off"]).default("on"),
  GATEWAY_TRACE_PROPAGATION: z.enum(["off", "on"]).default("off"),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default("ai-gateway"),
  GATEWAY_READINESS_TIMEOUT_MS: integer(1).default(2000),
  GATEWAY_ADMIN_EMAIL: z.string().email().optional(),
  GATEWAY_ADMIN_PASSWORD: z.string().min(8).optional(),
  GATEWAY_API_KEY: z
    .string()
    .regex(/^gak_[A-Za-z0-9_-]{16,256}$/, "must be a gateway key: 'gak_' followed by 16 to 256 letters, digits, '_' or '-'")
    .optional(),
});

/** The gateway's settings, read from the environment. */
export interface GatewaySettings {
  port: number;
  host: string;
  /** Unset: embedded SQLite under `dataDirectory`. */
  databaseUrl: string | undefined;
  dataDirectory: string;
  /** Path of the declarative configuration file (YAML or JSON). */
  configPath: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and of the pub/sub channel (instances sharing it share counters). */
  redisKeyPrefix: string;
  /** Redis down: refuse (503) calls under a hard budget (`closed`) or let them through (`open`). */
  redisFailureModeBudgets: "closed" | "open";
  /** Redis down: skip rate limits (`open`) or refuse calls under one (`closed`, 503). */
  redisFailureModeRateLimits: "open" | "closed";
  /** How often traces and notifications are batched and sent. */
  deliveryFlushMs: number;
  /** Timeout of one delivery HTTP request. */
  deliveryTimeoutMs: number;
  /** Attempts per delivery (with backoff) before it is given up. */
  deliveryMaxAttempts: number;
  /** Most spans waiting for delivery (the oldest are dropped and counted beyond). */
  deliveryQueueSize: number;
  /** How often destinations and channels are reloaded (also after every snapshot reload). */
  deliveryRefreshMs: number;
  bodyLimitBytes: number;
  /** The gateway's deadline per request until its answer starts (a stream is then bounded by the stream timeouts). */
  requestTimeoutMs: number;
  /**
   * How long an idle client connection is kept open. Above the idle timeout of the load
   * balancers in front (AWS ALB: 60 s), so they, not the gateway, close idle connections: a
   * connection closed by the gateway just as a balancer reuses it is a 502 there.
   */
  keepAliveTimeoutMs: number;
  /** How long a connection may take to send a request's headers (at most `requestTimeoutMs`): then 408 and closed. */
  headersTimeoutMs: number;
  /** A client that takes none of its waiting answer bytes for this long is disconnected (0: never). */
  writeTimeoutMs: number;
  /** Most open client connections (unset: 10,000, at most half the open-file limit); silent and idle ones make room first. */
  maxConnections: number | undefined;
  /** Most open connections from one client address. */
  maxConnectionsPerAddress: number;
  /** Width bounds of request bodies, checked before they are parsed: values in all, keys per object, elements per array. */
  jsonMaxValues: number;
  jsonMaxObjectKeys: number;
  jsonMaxArrayElements: number;
  /** Largest body of a request to the MCP endpoint (MCP messages are small; the SDK's own transport takes 4 MB). */
  mcpBodyLimitBytes: number;
  /** Largest result of one MCP call (tools/call, prompts/get, resources/read) relayed to the caller; larger: a JSON-RPC error. */
  mcpResultLimitBytes: number;
  /** JSON provider calls: the whole upstream call (a connection's `timeouts.totalMs` overrides it). */
  upstreamTimeoutMs: number;
  upstreamConnectTimeoutMs: number;
  /** Streams: from the upstream request until its first bytes (reasoning models think first). */
  streamFirstByteTimeoutMs: number;
  /** Streams: the longest upstream silence once the stream flows. */
  streamIdleTimeoutMs: number;
  /** Streams: the longest whole stream; 0 means no limit. */
  streamMaxDurationMs: number;
  /** How long stored Responses (`store`) are kept, in days (default 30, as OpenAI keeps them). */
  responsesRetentionDays: number;
  snapshotPollMs: number;
  /** How often the whole control plane is re-read although every change arrived as a delta (0: only on start and on a gap). */
  snapshotFullReloadMs?: number;
  /** MCP: the longest one call to an upstream MCP server (a tool call, a prompt, a resource read) may take. */
  mcpTimeoutMs: number;
  /** MCP: the longest connecting to an upstream MCP server, refreshing its grant, or one of its lists may take. */
  mcpListTimeoutMs: number;
  /** MCP: how long an upstream server's list of tools, prompts and resources is reused (0: never). */
  mcpCatalogTtlMs: number;
  /** MCP: browser origins allowed to call `/mcp` (requests without `Origin` always pass). */
  mcpAllowedOrigins: string[];
  /**
   * Outbound address policy: may provider connections, MCP servers (and their OAuth endpoints),
   * telemetry and notification URLs reach loopback and private ranges (`allow`, the default) or
   * not (`deny`)? Link-local and cloud metadata addresses are refused either way.
   */
  outboundPrivateAddresses: "allow" | "deny";
  /** The gateway's public base URL (in the MCP endpoint's `WWW-Authenticate` and metadata); unset: from the request's Host. */
  publicUrl: string | undefined;
  /** PostgreSQL: LISTEN for control-plane changes (`GATEWAY_POSTGRES_LISTEN=off` behind a transaction-pooling proxy). */
  postgresListen: boolean;
  /** Usage events per database write; unset: 500, or 100 on SQLite written on the event loop (`usageWriterThread` off). */
  usageBatchSize: number | undefined;
  usageFlushMs: number;
  /**
   * `memory`: usage events wait in memory until their batch is written (a SIGTERM drains them; a
   * SIGKILL or crash loses up to `usageFlushMs` of them). `journal`: each event is first appended
   * to `<dataDirectory>/usage-journal/` and replayed on the next start, so a killed process loses
   * none; an operating-system crash can lose the last `usageJournalSyncMs` of them.
   */
  usageDurability: "memory" | "journal";
  /** Journal mode: how often the journal is flushed to the disk (fdatasync), in ms. */
  usageJournalSyncMs: number;
  /** Embedded SQLite: write usage on a worker thread with its own connection (off: on the event loop). */
  usageWriterThread: boolean;
  shutdownTimeoutMs: number;
  /**
   * Standalone server only: V8's old generation may grow to (1 + percent/100) x the live heap
   * before it is collected again; 0 leaves V8's own dynamic factor (1.1 to 4). Default 30.
   */
  heapGrowingPercent: number;
  /** Least level written (`info`: one line per request). */
  logLevel: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  /** `json` lines, or `pretty` lines for people; unset: pretty only when stdout is a terminal. */
  logFormat: "json" | "pretty" | undefined;
  /** Port of the separate `/metrics` listener (0: a free one); null: no separate listener. */
  metricsPort: number | null;
  /** Address of the `/metrics` listener (default: the gateway's host). */
  metricsHost: string | undefined;
  /** When set, `GET /metrics` is also served on the main port to `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** OpenTelemetry traces of calls to the organizations' OTLP destinations. */
  traces: boolean;
  /** Send the W3C trace context upstream to providers. */
  tracePropagation: boolean;
  /** OTLP `service.name` of the gateway's spans. */
  serviceName: string;
  /** Longest wait of each `/readyz` check. */
  readinessTimeoutMs: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  apiKey: string | undefined;
}

/**
 * Reads and validates the gateway's environment variables (empty values count as unset).
 * Throws an Error naming every invalid variable.
 */
export function readGatewaySettings(environment: Record<string, string | undefined> = process.env): GatewaySettings {
  const present = Object.fromEntries(
    Object.keys(settingsSchema.shape)
      .map((name) => [name, environment[name]])
      .filter((entry) => entry[1] !== undefined && entry[1] !== ""),
  );
  const parsed = settingsSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join("; ")}`);
  }
  const values = parsed.data;
  return {
    port: values.GATEWAY_PORT,
    host: values.GATEWAY_HOST,
    databaseUrl: values.DATABASE_URL,
    dataDirectory: values.GATEWAY_DATA_DIR,
    configPath: values.GATEWAY_CONFIG,
    redisUrl: values.REDIS_URL,
    redisKeyPrefix: values.GATEWAY_REDIS_KEY_PREFIX,
    redisFailureModeBudgets: values.GATEWAY_REDIS_FAILURE_MODE_BUDGETS,
    redisFailureModeRateLimits: values.GATEWAY_REDIS_FAILURE_MODE_RATE_LIMITS,
    deliveryFlushMs: values.GATEWAY_DELIVERY_FLUSH_MS,
    deliveryTimeoutMs: values.GATEWAY_DELIVERY_TIMEOUT_MS,
    deliveryMaxAttempts: values.GATEWAY_DELIVERY_MAX_ATTEMPTS,
    deliveryQueueSize: values.GATEWAY_DELIVERY_QUEUE_SIZE,
    deliveryRefreshMs: values.GATEWAY_DELIVERY_REFRESH_MS,
    bodyLimitBytes: values.GATEWAY_BODY_LIMIT_BYTES,
    requestTimeoutMs: values.GATEWAY_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: values.GATEWAY_KEEP_ALIVE_TIMEOUT_MS,
    headersTimeoutMs: values.GATEWAY_HEADERS_TIMEOUT_MS,
    writeTimeoutMs: values.GATEWAY_WRITE_TIMEOUT_MS,
    maxConnections: values.GATEWAY_MAX_CONNECTIONS,
    maxConnectionsPerAddress: values.GATEWAY_MAX_CONNECTIONS_PER_ADDRESS,
    jsonMaxValues: values.GATEWAY_JSON_MAX_VALUES,
    jsonMaxObjectKeys: values.GATEWAY_JSON_MAX_OBJECT_KEYS,
    jsonMaxArrayElements: values.GATEWAY_JSON_MAX_ARRAY_ELEMENTS,
    mcpBodyLimitBytes: values.GATEWAY_MCP_BODY_LIMIT_BYTES,
    mcpResultLimitBytes: values.GATEWAY_MCP_RESULT_LIMIT_BYTES,
    upstreamTimeoutMs: values.GATEWAY_UPSTREAM_TIMEOUT_MS,
    upstreamConnectTimeoutMs: values.GATEWAY_UPSTREAM_CONNECT_TIMEOUT_MS,
    streamFirstByteTimeoutMs: values.GATEWAY_STREAM_FIRST_BYTE_TIMEOUT_MS,
    streamIdleTimeoutMs: values.GATEWAY_STREAM_IDLE_TIMEOUT_MS,
    streamMaxDurationMs: values.GATEWAY_STREAM_MAX_DURATION_MS,
    responsesRetentionDays: values.GATEWAY_RESPONSES_RETENTION_DAYS,
    snapshotPollMs: values.GATEWAY_SNAPSHOT_POLL_MS,
    snapshotFullReloadMs: values.GATEWAY_SNAPSHOT_FULL_RELOAD_MS,
    mcpTimeoutMs: values.GATEWAY_MCP_TIMEOUT_MS,
    mcpListTimeoutMs: values.GATEWAY_MCP_LIST_TIMEOUT_MS,
    mcpCatalogTtlMs: values.GATEWAY_MCP_CATALOG_TTL_MS,
    mcpAllowedOrigins: values.GATEWAY_MCP_ALLOWED_ORIGINS.split(",").map((origin) => origin.trim()).filter((origin) => origin !== ""),
    outboundPrivateAddresses: values.GATEWAY_OUTBOUND_PRIVATE_ADDRESSES,
    publicUrl: values.GATEWAY_PUBLIC_URL,
    postgresListen: values.GATEWAY_POSTGRES_LISTEN === "on",
    usageBatchSize: values.GATEWAY_USAGE_BATCH_SIZE,
    usageFlushMs: values.GATEWAY_USAGE_FLUSH_MS,
    usageDurability: values.GATEWAY_USAGE_DURABILITY,
    usageJournalSyncMs: values.GATEWAY_USAGE_JOURNAL_SYNC_MS,
    usageWriterThread: values.GATEWAY_USAGE_WRITER_THREAD === "on",
    shutdownTimeoutMs: values.GATEWAY_SHUTDOWN_TIMEOUT_MS,
    heapGrowingPercent: values.GATEWAY_HEAP_GROWING_PERCENT,
    logLevel: values.GATEWAY_LOG_LEVEL,
    logFormat: values.GATEWAY_LOG_FORMAT,
    metricsPort: values.GATEWAY_METRICS_PORT === "off" ? null : values.GATEWAY_METRICS_PORT,
    metricsHost: values.GATEWAY_METRICS_HOST,
    metricsToken: values.GATEWAY_METRICS_TOKEN,
    traces: values.GATEWAY_TRACES === "on",
    tracePropagation: values.GATEWAY_TRACE_PROPAGATION === "on",
    serviceName: values.OTEL_SERVICE_NAME,
    readinessTimeoutMs: values.GATEWAY_READINESS_TIMEOUT_MS,
    adminEmail: values.GATEWAY_ADMIN_EMAIL,
    adminPassword: values.GATEWAY_ADMIN_PASSWORD,
    apiKey: values.GATEWAY_API_KEY,
  };
}
