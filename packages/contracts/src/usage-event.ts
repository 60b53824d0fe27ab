/** The endpoint a usage event is about. */
export type UsageEndpoint =
  | "decisions"
  | "chat_completions"
  | "messages"
  | "count_tokens"
  | "responses"
  | "embeddings"
  | "models"
  | "playground"
  | "mcp";

/**
 * One usage event per call, success or error. Produced by the pipeline, written in batches by
 * the database layer.
 */
export interface UsageEventRecord {
  /**
   * The stored row's id. Unset: the database layer assigns one when it inserts the event. Set
   * when the event is journaled before its write (`GATEWAY_USAGE_DURABILITY=journal`), so that
   * a replay after a crash inserts it at most once.
   */
  id?: string;
  /** The gateway's own request id (`req_...`). */
  requestId: string;
  /** The caller's `X-Request-ID`, if any. */
  traceId: string | null;
  occurredAt: Date;
  organizationId: string | null;
  projectId: string | null;
  apiKeyId: string | null;
  userId: string | null;
  endpoint: UsageEndpoint;
  requestedModel: string | null;
  routeId: string | null;
  /** Connection name. */
  provider: string | null;
  model: string | null;
  /** 499 with `client_cancelled` for disconnects. */
  status: number;
  errorCode: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Part of `outputTokens` spent on reasoning, when the provider reports it. */
  reasoningTokens: number;
  costMicros: number;
  /** For example `reserved`, `soft_threshold`, `rejected:<budgetId>`. */
  budgetOutcome: string | null;
  latencyMs: number;
  timeToFirstByteMs: number | null;
  /** Validated `X-Gateway-Client` label (or one detected from User-Agent). */
  clientLabel: string | null;
  /** Validated `X-Gateway-Session-ID`. */
  sessionId: string | null;
  guardrailFlags: string[];
  /**
   * Only when the project captures content, and never for decisions: `{ request, response }`
   * after redaction guardrails. Stored apart from the usage row (`usage_event_contents`),
   * compressed and encrypted, cut at `contentCapture.maxBytes`.
   */
  content: unknown | null;
  /** How captured content is kept: the project's size cap per call and retention. */
  contentCapture?: UsageContentCapture | null;
  /** Team of the key at call time. */
  teamId?: string | null;
  /** Id of the connection that served the call (the last attempt's). */
  connectionId?: string | null;
  /** Version part of `X-Gateway-Client` (`clientLabel` keeps the name). */
  clientVersion?: string | null;
  /** `X-Gateway-Metadata` merged over the key's default metadata. */
  metadata?: Readonly<Record<string, string>> | null;
  /** Each provider attempt, in order (empty when the call never reached a provider). */
  attempts?: readonly UsageAttempt[] | null;
  /** Time spent in the gateway itself: total latency minus the time waiting on providers. */
  gatewayOverheadMs?: number | null;
  /** `limited` when a rate limit refused the call. */
  rateLimitOutcome?: "limited" | null;
  /** The error body's message (never secrets). */
  errorMessage?: string | null;
}

/** Content capture settings of the call's project. */
export interface UsageContentCapture {
  /** Captured bytes per call (request + response JSON); longer content is cut and marked truncated. */
  maxBytes: number;
  /** Days the content is kept. */
  retentionDays: number;
}

/** What became of one provider attempt of a call. */
export type UsageAttemptOutcome = "served" | "retried" | "fell_back" | "failed";

/** One provider attempt of a call (stored as snake_case JSON in `usage_events.attempts`). */
export interface UsageAttempt {
  connectionId: string | null;
  /** Connection name. */
  provider: string | null;
  model: string | null;
  /** Upstream HTTP status; null when no answer came (connect failure, timeout). */
  status: number | null;
  latencyMs: number;
  errorCode: string | null;
  outcome: UsageAttemptOutcome;
  /** Why the attempt was retried or fell back: `upstream_5xx`, `rate_limited`, `connect_failure`, `timeout`, ...; null when served. */
  reason: string | null;
}
