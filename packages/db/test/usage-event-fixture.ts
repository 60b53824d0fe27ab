import { randomBytes } from "node:crypto";
import type { UsageEventRecord } from "@gateway/contracts";

/** A complete usage event with plausible values; `overrides` replace fields. */
export function usageEvent(overrides: Partial<UsageEventRecord> = {}): UsageEventRecord {
  return {
    requestId: `req_${randomBytes(6).toString("hex")}`,
    traceId: null,
    occurredAt: new Date("2026-03-01T10:00:00Z"),
    organizationId: null,
    projectId: null,
    apiKeyId: null,
    userId: null,
    endpoint: "chat_completions",
    requestedModel: "fast",
    routeId: null,
    provider: "demo",
    model: "demo/echo",
    status: 200,
    errorCode: null,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 1,
    cacheWriteTokens: 2,
    reasoningTokens: 0,
    costMicros: 123,
    budgetOutcome: null,
    latencyMs: 42,
    timeToFirstByteMs: 7,
    clientLabel: "cli/1.0",
    sessionId: null,
    guardrailFlags: [],
    content: null,
    ...overrides,
  };
}
