import type { UsageEndpoint } from "./usage-endpoint.js";

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
  /** Only when the project captures content, and never for decisions. */
  content: unknown | null;
}
