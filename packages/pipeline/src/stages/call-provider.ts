import type { UsageAttempt } from "@gateway/contracts";
import { type GatewayError, ProviderPassthroughError, normalizeError } from "@gateway/errors";
import type { ProviderTarget } from "@gateway/provider-adapters";
import type { CallTarget } from "./call-target.js";
import { type AffinityStore, type LatencyTracker, isConnectFailure, reportTargetFailure, reportTargetSuccess } from "@gateway/policy-engine";
import { callWithFallback } from "./call-with-fallback.js";
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
  const { plan, observation, attempts } = input;
  let index = 0;
  const outcome = await callWithFallback<Target, Result>({
    targets: plan.targets,
    maxAttemptsPerTarget: plan.maxAttemptsPerTarget,
    deadline: input.scope.deadline,
    abort: input.scope.abort,
    call: async (target, attempt) => {
      input.onAttempt?.(target);
      const started = Date.now();
      if (observation === undefined) {
        if (attempts === undefined) {
          const result = await input.call(target, attempt);
          input.latencyTracker?.record(target.qualifiedModel, Date.now() - started);
          return result;
        }
        try {
          const result = await input.call(target, attempt);
          const latencyMs = Date.now() - started;
          input.latencyTracker?.record(target.qualifiedModel, latencyMs);
          attempts.push(servedAttempt(target, latencyMs, input.statusOf === undefined ? null : input.statusOf(result)));
          return result;
        } catch (thrown) {
          attempts.push(failedAttempt(target, Date.now() - started, normalizeError(thrown)));
          throw thrown;
        }
      }
      const observed: ObservedAttempt = { target, attempt, index, kind: attempt > 1 ? "retry" : index > 0 ? "fallback" : "first", startedAt: started };
      index += 1;
      const extraHeaders = observation.attemptStarted?.(observed);
      try {
        const result = await input.call(target, attempt, extraHeaders);
        const endedAt = Date.now();
        input.latencyTracker?.record(target.qualifiedModel, endedAt - started);
        attempts?.push(servedAttempt(target, endedAt - started, input.statusOf === undefined ? null : input.statusOf(result)));
        observation.attemptEnded?.(endedAttempt(observed, endedAt, null));
        return result;
      } catch (thrown) {
        const endedAt = Date.now();
        const error = normalizeError(thrown);
        attempts?.push(failedAttempt(target, endedAt - started, error));
        observation.attemptEnded?.(endedAttempt(observed, endedAt, error));
        throw thrown;
      }
    },
    onAttemptError: ({ target, willRetry, willFallBack, error }) => {
      // The attempt just pushed learns what came of it (a field set on it: its shape stays the same).
      const last = attempts === undefined ? undefined : attempts[attempts.length - 1];
      if (last !== undefined && last.outcome === "failed") {
        if (willRetry) last.outcome = "retried";
        else if (willFallBack) last.outcome = "fell_back";
        last.reason = attemptFailureReason(error);
      }
      if (!willRetry && plan.affinityKey !== null) {
        void reportTargetFailure({ affinityStore: input.affinityStore, affinityKey: plan.affinityKey, target }).catch(() => undefined);
      }
    },
  });
  if (plan.affinityKey !== null && plan.route !== null) {
    void reportTargetSuccess({
      affinityStore: input.affinityStore,
      affinityKey: plan.affinityKey,
      target: outcome.target,
      ttlSeconds: plan.route.affinity.ttlSeconds,
    }).catch(() => undefined);
  }
  return outcome;
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
