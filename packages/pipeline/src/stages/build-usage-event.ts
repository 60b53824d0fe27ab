import type { NormalizedUsage } from "@gateway/contracts";
import type { CallTarget } from "./call-target.js";
import type { CallerIdentity } from "./authenticate.js";
import type { SnapshotRoute } from "@gateway/contracts";
import type { RequestContext } from "./request-context.js";
import { servedModelOf } from "./settle-cost.js";
import type { UsageAttempt, UsageEndpoint, UsageEventRecord } from "@gateway/contracts";
import { redactSecrets } from "@gateway/errors";
import { mergeGatewayMetadata, noMetadata } from "./gateway-metadata.js";

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
  /** Each provider attempt, in order. */
  attempts?: readonly UsageAttempt[] | null;
  /** Epoch ms the answer started (JSON answered, first stream event); the gateway overhead is measured up to it. */
  answeredAt?: number | null;
  /** The error the caller was answered with. */
  error?: { code: string; message: string } | null;
}

const noAttempts: readonly UsageAttempt[] = Object.freeze([]);
/** The longest error message recorded (the error body's message; never secrets). */
const maxErrorMessageLength = 1000;

/** Builds the usage event of a finished call (success or error). */
export function buildUsageEvent(input: UsageEventInput): UsageEventRecord {
  const endedAt = input.endedAt ?? Date.now();
  const target = input.target ?? null;
  const usage = input.usage ?? null;
  const attempts = input.attempts ?? noAttempts;
  const identity = input.identity ?? null;
  const project = identity?.project;
  const error = input.error ?? null;
  // The gateway's own time: until the answer started (or the call ended), minus the time spent
  // waiting on providers.
  let providerMs = 0;
  for (let index = 0; index < attempts.length; index += 1) providerMs += attempts[index]!.latencyMs;
  const overheadUntil = input.answeredAt ?? endedAt;
  const content = input.endpoint === "decisions" ? null : (input.content ?? null);
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
    content,
    contentCapture: content === null || project === undefined ? null : { maxBytes: project.contentMaxBytes ?? 65_536, retentionDays: project.contentRetentionDays ?? 7 },
    teamId: identity?.apiKey.teamId ?? null,
    connectionId: target?.connection.id ?? null,
    clientVersion: input.context?.clientVersion ?? null,
    metadata: mergeGatewayMetadata(identity?.apiKey.defaultMetadata, input.context?.metadata ?? noMetadata),
    attempts,
    gatewayOverheadMs: Math.max(0, overheadUntil - input.startedAt - providerMs),
    rateLimitOutcome: error !== null && error.code === "gateway_rate_limit_exceeded" ? "limited" : null,
    errorMessage: error === null ? null : redactSecrets(error.message.length > maxErrorMessageLength ? error.message.slice(0, maxErrorMessageLength) : error.message),
  };
}
