import { type GatewayError, normalizeError } from "@gateway/errors";
import type { ProviderTarget } from "@gateway/provider-adapters";
import type { CallTarget } from "./call-target.js";
import { type AffinityStore, type LatencyTracker, reportTargetFailure, reportTargetSuccess } from "@gateway/policy-engine";
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
}

/**
 * The call-provider stage: tries the plan's targets in order with the route's retries and
 * fallbacks, records each target's latency (least-latency routing) and keeps session
 * affinity up to date (a failed target releases the session, a success keeps it).
 */
export async function callProvider<Result, Target extends CallTarget = ProviderTarget>(
  input: CallProviderInput<Result, Target>,
): Promise<{ result: Result; target: Target; attempts: number }> {
  const { plan, observation } = input;
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
        const result = await input.call(target, attempt);
        input.latencyTracker?.record(target.qualifiedModel, Date.now() - started);
        return result;
      }
      const observed: ObservedAttempt = { target, attempt, index, kind: attempt > 1 ? "retry" : index > 0 ? "fallback" : "first", startedAt: started };
      index += 1;
      const extraHeaders = observation.attemptStarted?.(observed);
      try {
        const result = await input.call(target, attempt, extraHeaders);
        const endedAt = Date.now();
        input.latencyTracker?.record(target.qualifiedModel, endedAt - started);
        observation.attemptEnded?.(endedAttempt(observed, endedAt, null));
        return result;
      } catch (thrown) {
        observation.attemptEnded?.(endedAttempt(observed, Date.now(), normalizeError(thrown)));
        throw thrown;
      }
    },
    onAttemptError: ({ target, willRetry }) => {
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
