import type { UsageEndpoint, UsageEventRecord } from "@gateway/contracts";
import type { GatewayError } from "@gateway/errors";
import type { CallerIdentity } from "../stages/authenticate.js";
import type { CallTarget } from "../stages/call-target.js";
import type { RequestHeaders } from "../stages/request-headers.js";

/** What an observer learns when a call starts (before authentication). */
export interface ObservedCallStart {
  requestId: string;
  endpoint: UsageEndpoint;
  /** Epoch ms the request arrived. */
  startedAt: number;
  /** The caller's headers (a W3C `traceparent`, for example). Never log them: they carry the key. */
  headers: RequestHeaders;
}

/** Why an upstream attempt was made: the route's first target, a retry on the same target, or a fallback to the next one. */
export type ObservedAttemptKind = "first" | "retry" | "fallback";

/** One upstream attempt as it starts. */
export interface ObservedAttempt {
  /** A provider target (its `connection` is the snapshot's), or an MCP call's server and tool (endpoint `mcp`). */
  target: CallTarget;
  /** 1-based attempt on this target. */
  attempt: number;
  /** 0-based attempt of the whole call (across targets). */
  index: number;
  kind: ObservedAttemptKind;
  /** Epoch ms. */
  startedAt: number;
}

/** One upstream attempt as it ended: with its answer (for a stream: its headers), or its error. */
export interface ObservedAttemptEnd extends ObservedAttempt {
  /** Epoch ms. */
  endedAt: number;
  /** Null when the provider answered. */
  error: GatewayError | null;
}

/** What an observer learns when a call has ended and is settled. */
export interface ObservedCallEnd {
  /** The call's usage event, as queued (ids, status, tokens, cost, latency, time to first byte, content when captured). */
  event: UsageEventRecord;
  error: GatewayError | null;
  /** The answer was a stream. */
  streamed: boolean;
  /** Epoch ms the answer started (JSON answered, or the stream's headers), or null when the call failed before. */
  answeredAt: number | null;
  /** Epoch ms the answer ended (JSON answered, or the stream's last event). */
  endedAt: number;
  /** The upstream's served target (null when no provider answered); see {@link ObservedAttempt.target}. */
  target: CallTarget | null;
}

/**
 * What follows one observed call. Every method is optional but `callEnded`; each is called at
 * most once per fact, in the order the call learns them. Must not throw, must not block.
 */
export interface InferenceCallObservation {
  /** The caller was authenticated (before validation and routing). */
  authenticated?(identity: CallerIdentity): void;
  /**
   * An upstream attempt starts. May answer headers to add to the upstream request (a W3C
   * `traceparent` when trace propagation is configured).
   */
  attemptStarted?(attempt: ObservedAttempt): Record<string, string> | undefined;
  attemptEnded?(attempt: ObservedAttemptEnd): void;
  /** The call ended (success, error or the caller leaving), was settled, and its usage event queued. */
  callEnded(end: ObservedCallEnd): void;
}

/**
 * Told about each inference call at the points where the call skeleton already knows the facts
 * (metrics, traces, logs implement it; the apps wire it as `PipelineDependencies.observer`).
 * Without an observer the skeleton does no observing work at all.
 */
export interface InferenceCallObserver {
  /** A call starts; answers what follows it, or undefined to leave this call unobserved. */
  callStarted(start: ObservedCallStart): InferenceCallObservation | undefined;
}

/**
 * One observer out of several (metrics and traces, say): each is asked in order; attempt headers
 * are merged. Undefined when there is none, so that an app with nothing to observe pays nothing.
 */
export function combineCallObservers(observers: readonly (InferenceCallObserver | null | undefined)[]): InferenceCallObserver | undefined {
  const present = observers.filter((observer): observer is InferenceCallObserver => observer !== null && observer !== undefined);
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  return {
    callStarted(start) {
      const observations: InferenceCallObservation[] = [];
      for (const observer of present) {
        const observation = observer.callStarted(start);
        if (observation !== undefined) observations.push(observation);
      }
      if (observations.length === 0) return undefined;
      if (observations.length === 1) return observations[0];
      return {
        authenticated(identity) {
          for (const observation of observations) observation.authenticated?.(identity);
        },
        attemptStarted(attempt) {
          let headers: Record<string, string> | undefined;
          for (const observation of observations) {
            const added = observation.attemptStarted?.(attempt);
            if (added !== undefined) headers = { ...headers, ...added };
          }
          return headers;
        },
        attemptEnded(attempt) {
          for (const observation of observations) observation.attemptEnded?.(attempt);
        },
        callEnded(end) {
          for (const observation of observations) observation.callEnded(end);
        },
      };
    },
  };
}
