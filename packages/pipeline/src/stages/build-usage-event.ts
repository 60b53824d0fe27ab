import type { NormalizedUsage } from "@gateway/contracts";
import type { CallTarget } from "./call-target.js";
import type { CallerIdentity } from "./authenticate.js";
import type { SnapshotRoute } from "@gateway/contracts";
import type { RequestContext } from "./request-context.js";
import { servedModelOf } from "./settle-cost.js";
import type { UsageEndpoint, UsageEventRecord } from "@gateway/contracts";

/** What a call has learnt by the time it ends; everything but the context is optional. */
export interface UsageEventInput {
  /** Null when the request context itself could not be built (headers invalid). */
  context: RequestContext | null;
  requestId: string;
  endpoint: UsageEndpoint;
  startedAt: number;
  identity?: CallerIdentity | null;
  requestedModel?: string | null;
  route?: SnapshotRoute | null;
  target?: CallTarget | null;
  status: number;
  errorCode?: string | null;
  usage?: NormalizedUsage | null;
  costMicros?: number;
  budgetOutcome?: string | null;
  timeToFirstByteMs?: number | null;
  guardrailFlags?: string[];
  /** Captured content; always null for decisions. */
  content?: unknown;
  /** Epoch ms the call ended; defaults to now. */
  endedAt?: number;
}

/** Builds the usage event of a finished call (success or error). */
export function buildUsageEvent(input: UsageEventInput): UsageEventRecord {
  const endedAt = input.endedAt ?? Date.now();
  const target = input.target ?? null;
  const usage = input.usage ?? null;
  return {
    requestId: input.requestId,
    traceId: input.context?.traceId ?? null,
    occurredAt: new Date(input.startedAt),
    organizationId: input.identity?.organization.id ?? null,
    projectId: input.identity?.project.id ?? null,
    apiKeyId: input.identity?.apiKey.id ?? null,
    userId: input.identity?.userId ?? null,
    endpoint: input.endpoint,
    requestedModel: input.requestedModel ?? null,
    routeId: input.route?.id ?? null,
    provider: target?.connection.name ?? null,
    model: target === null ? null : servedModelOf(target),
    status: input.status,
    errorCode: input.errorCode ?? null,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadTokens: usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
    costMicros: input.costMicros ?? 0,
    budgetOutcome: input.budgetOutcome ?? null,
    latencyMs: Math.max(0, endedAt - input.startedAt),
    timeToFirstByteMs: input.timeToFirstByteMs ?? null,
    clientLabel: input.context?.clientLabel ?? null,
    sessionId: input.context?.sessionId ?? null,
    guardrailFlags: input.guardrailFlags ?? [],
    content: input.endpoint === "decisions" ? null : (input.content ?? null),
  };
}
