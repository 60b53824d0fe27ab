import type { UsageAttempt } from "@gateway/contracts";
import { type GatewayError, ProviderPassthroughError, normalizeError } from "@gateway/errors";
import type { ProviderTarget } from "@gateway/provider-adapters";
import type { CallTarget } from "./call-target.js";
import { type AffinityStore, type LatencyTracker, isConnectFailure, reportTargetFailure, reportTargetSuccess } from "@gateway/policy-engine";
import { type AttemptFailure, callWithFallback } from "./call-with-fallback.js";
import type { RoutePlan } from "./resolve-route.js";
import type { InferenceCallObservation, ObservedAttempt, ObservedAttemptEnd } from "../call/inference-call-observer.js";

/** The abort and deadline of one call, as the call-provider stage sees them. */
export interface CallScope {
  /** Aborted when the caller disconnects or the gateway deadline passes. */
  abort: { readonly aborted: boolean };
  /** Epoch ms after which no new attempt starts. */
  deadline: number;
}

/** Input of {@link callProvider}. */
export interface CallProviderInput<Result, Target extends CallTarget = ProviderTarget> {
  plan: RoutePlan<Target>;
  scope: CallScope;
  affinityStore?: AffinityStore;
  latencyTracker?: LatencyTracker;
  /**
   * One provider call on one target (the adapter call of the endpoint); `extraHeaders` are the
   * observer's additions to the upstream request (trace context), when it has any.
   */
  call: (target: Target, attempt: number, extraHeaders?: Record<string, string>) => Promise<Result>;
  /** Told when each attempt starts and ends (metrics, traces); absent: nothing is observed. */
  observation?: Pick<InferenceCallObservation, "attemptStarted" | "attemptEnded">;
  /** Told before each attempt (so the caller knows which target consumed what). */
  onAttempt?: (target: Target) => void;
  /** Each attempt is appended here as it ends (target, status, latency, why it was retried or fell back). */
  attempts?: UsageAttempt[];
  /** The upstream status of a successful attempt's result (default: unknown). */
  statusOf?: (result: Result) => number | null;
}

/**
 * The call-provider stage: tries the plan's targets in order with the route's retries and
 * fallbacks, records each target's latency (least-latency routing) and keeps session
 * affinity up to date (a failed target releases the session, a success keeps it).
 */
export async function callProvider<Result, Target extends CallTarget = ProviderTarget>(
  input: CallProviderInput<Result, Target>,
): Promise<{ result: Result; target: Target; attempts: number }> {
  const { plan } = input;
  const outcome = await callWithFallback<Target, Result>({
    targets: plan.targets,
    maxAttemptsPerTarget: plan.maxAttemptsPerTarget,
    deadline: input.scope.deadline,
    abort: input.scope.abort,
    call: (target, attempt, index) => (input.observation === undefined ? attemptTarget(input, target, attempt) : attemptObserved(input, input.observation, { target, attempt, index })),
    onAttemptError: (failure) => {
      if (input.attempts !== undefined) settleFailedAttempt(input.attempts, failure);
      if (!failure.willRetry) releaseAffinity(input, failure.target);
    },
  });
  keepAffinity(input, outcome.target);
  return outcome;
}

/** One attempt nobody observes: its latency recorded, and in `attempts` (when kept) how it went. */
async function attemptTarget<Result, Target extends CallTarget>(input: CallProviderInput<Result, Target>, target: Target, attempt: number): Promise<Result> {
  input.onAttempt?.(target);
  const started = Date.now();
  const { attempts } = input;
  if (attempts === undefined) {
    const result = await input.call(target, attempt);
    input.latencyTracker?.record(target.qualifiedModel, Date.now() - started);
    return result;
  }
  try {
    const result = await input.call(target, attempt);
    const latencyMs = Date.now() - started;
    input.latencyTracker?.record(target.qualifiedModel, latencyMs);
    attempts.push(servedAttempt(target, latencyMs, statusOfResult(input, result)));
    return result;
  } catch (thrown) {
    attempts.push(failedAttempt(target, Date.now() - started, normalizeError(thrown)));
    throw thrown;
  }
}

/** One attempt told to the observer as it starts (its additions go upstream) and as it ends. */
async function attemptObserved<Result, Target extends CallTarget>(
  input: CallProviderInput<Result, Target>,
  observation: NonNullable<CallProviderInput<Result, Target>["observation"]>,
  position: { target: Target; attempt: number; index: number },
): Promise<Result> {
  const { target, attempt, index } = position;
  input.onAttempt?.(target);
  const started = Date.now();
  const observed: ObservedAttempt = { target, attempt, index, kind: attempt > 1 ? "retry" : index > 0 ? "fallback" : "first", startedAt: started };
  const extraHeaders = observation.attemptStarted?.(observed);
  try {
    const result = await input.call(target, attempt, extraHeaders);
    const endedAt = Date.now();
    input.latencyTracker?.record(target.qualifiedModel, endedAt - started);
    input.attempts?.push(servedAttempt(target, endedAt - started, statusOfResult(input, result)));
    observation.attemptEnded?.(endedAttempt(observed, endedAt, null));
    return result;
  } catch (thrown) {
    const endedAt = Date.now();
    const error = normalizeError(thrown);
    input.attempts?.push(failedAttempt(target, endedAt - started, error));
    observation.attemptEnded?.(endedAttempt(observed, endedAt, error));
    throw thrown;
  }
}

function statusOfResult<Result, Target extends CallTarget>(input: CallProviderInput<Result, Target>, result: Result): number | null {
  return input.statusOf === undefined ? null : input.statusOf(result);
}

/**
 * The failed attempt just appended learns what came of it: retried, fell back, or (neither) it
 * stays failed. A field set on it: its shape stays the same.
 */
function settleFailedAttempt(attempts: UsageAttempt[], failure: AttemptFailure<unknown>): void {
  const last = attempts[attempts.length - 1];
  if (last === undefined || last.outcome !== "failed") return;
  if (failure.willRetry) last.outcome = "retried";
  else if (failure.willFallBack) last.outcome = "fell_back";
  last.reason = attemptFailureReason(failure.error);
}

/** A target that failed for good no longer holds the session (session affinity). */
function releaseAffinity<Result, Target extends CallTarget>(input: CallProviderInput<Result, Target>, target: Target): void {
  const { affinityKey } = input.plan;
  if (affinityKey === null) return;
  void reportTargetFailure({ affinityStore: input.affinityStore, affinityKey, target }).catch(() => undefined);
}

/** The target that served keeps the session for the route's affinity time. */
function keepAffinity<Result, Target extends CallTarget>(input: CallProviderInput<Result, Target>, target: Target): void {
  const { affinityKey, route } = input.plan;
  if (affinityKey === null || route === null) return;
  void reportTargetSuccess({ affinityStore: input.affinityStore, affinityKey, target, ttlSeconds: route.affinity.ttlSeconds }).catch(() => undefined);
}

/**
 * The attempt as it ended, written out field by field: a spread copy with added keys
 * (`{ ...observed, endedAt }`) gets a new hidden class on every call on this V8.
 */
function endedAttempt(observed: ObservedAttempt, endedAt: number, error: GatewayError | null): ObservedAttemptEnd {
  return {
    target: observed.target,
    attempt: observed.attempt,
    index: observed.index,
    kind: observed.kind,
    startedAt: observed.startedAt,
    endedAt,
    error,
  };
}

/** A served attempt (fields always in this order: one hidden class for every attempt). */
function servedAttempt(target: CallTarget, latencyMs: number, status: number | null): UsageAttempt {
  return { connectionId: target.connection.id, provider: target.connection.name, model: target.upstreamModel, status, latencyMs, errorCode: null, outcome: "served", reason: null };
}

/** A failed attempt; `outcome` and `reason` are set once the retry/fallback decision is known. */
function failedAttempt(target: CallTarget, latencyMs: number, error: GatewayError): UsageAttempt {
  return {
    connectionId: target.connection.id,
    provider: target.connection.name,
    model: target.upstreamModel,
    status: upstreamStatusOf(error),
    latencyMs,
    errorCode: error.code,
    outcome: "failed",
    reason: attemptFailureReason(error),
  };
}

/** The provider's own status behind an error, or null for failures without an answer. */
function upstreamStatusOf(error: GatewayError): number | null {
  if (ProviderPassthroughError.isInstance(error)) return error.upstreamStatus;
  const status = error.details?.upstreamStatus;
  return typeof status === "number" ? status : null;
}

/** Why an attempt failed, in the activity's words: `connect_failure`, `timeout`, `rate_limited`, `upstream_5xx`, `upstream_4xx`, or the error code. */
export function attemptFailureReason(error: GatewayError): string {
  if (isConnectFailure(error)) return "connect_failure";
  const status = upstreamStatusOf(error);
  if (status === 429 || error.code === "upstream_rate_limited") return "rate_limited";
  if (status === 408 || error.code === "upstream_timeout" || error.code === "request_timeout") return "timeout";
  if (status !== null) return status >= 500 ? "upstream_5xx" : "upstream_4xx";
  return error.code;
}
