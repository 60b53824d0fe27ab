import { GatewayError, normalizeError } from "@gateway/errors";
import { allowsFallback, isRetryableError, retryDelayMs } from "@gateway/policy-engine";

/** One attempt's failure, as reported to {@link CallWithFallbackOptions.onAttemptError}. */
export interface AttemptFailure<Target> {
  target: Target;
  attempt: number;
  error: GatewayError;
  willRetry: boolean;
  /** True when the call moves on to the next target (only when `willRetry` is false). */
  willFallBack: boolean;
}

/** Options of {@link callWithFallback}. */
export interface CallWithFallbackOptions<Target, Result> {
  /** Ordered targets: the first is tried first, the next ones are fallbacks. */
  targets: readonly Target[];
  /** Attempts per target (>= 1). */
  maxAttemptsPerTarget: number;
  /** Makes one call: `attempt` counts attempts on this target (from 1), `index` all attempts of the call (from 0). */
  call: (target: Target, attempt: number, index: number) => Promise<Result>;
  /** Epoch ms: no new attempt starts after it. */
  deadline: number;
  /** The call's abort (a `CallAbort` or an AbortSignal): once aborted, no new attempt starts. */
  abort?: { readonly aborted: boolean };
  /** Base of the jittered exponential backoff between attempts on the same target (default 200 ms). */
  backoffMs?: number;
  /** Told about every failed attempt (routing statistics, affinity invalidation). */
  onAttemptError?: (failure: AttemptFailure<Target>) => void;
}

/**
 * Calls targets in order with retries: an error that repeating may change (`isRetryableError`
 * of `@gateway/policy-engine`: connect failures, timeouts, upstream 408, 409, 429 and 5xx) is
 * retried on the same target after a jittered backoff or the provider's `Retry-After`, when that
 * wait ends before the deadline, up to `maxAttemptsPerTarget`. An upstream 400, 401, 403, 404 or
 * 422 is never repeated on the same target. Then the next target is tried when the route's
 * fallback rule allows it (`allowsFallback`: the adapter's `retryable` hint, e.g. a provider's
 * 401 or 404, which another connection may not meet); otherwise the call ends at once. The last
 * error is thrown when every target failed.
 */
export async function callWithFallback<Target, Result>(
  options: CallWithFallbackOptions<Target, Result>,
): Promise<{ result: Result; target: Target; attempts: number }> {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttemptsPerTarget));
  const backoffMs = options.backoffMs ?? 200;
  // Created only when needed: a GatewayError captures a stack trace, too costly for every call.
  let lastError: GatewayError | undefined;
  let attempts = 0;
  for (const [targetIndex, target] of options.targets.entries()) {
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      attempts += 1;
      try {
        const result = await options.call(target, attempt, attempts - 1);
        return { result, target, attempts };
      } catch (thrown) {
        const error = normalizeError(thrown);
        lastError = error;
        const aborted = options.abort?.aborted === true;
        const retryable = !aborted && isRetryableError(error);
        if (retryable && attempt < maxAttempts) {
          const delay = retryDelayMs({ attempt, retryAfter: error.retryAfter ?? null, baseMs: backoffMs });
          if (Date.now() + delay < options.deadline) {
            options.onAttemptError?.({ target, attempt, error, willRetry: true, willFallBack: false });
            if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
            continue;
          }
        }
        const hasNextTarget = targetIndex < options.targets.length - 1;
        const fallsBack = !aborted && hasNextTarget && allowsFallback(error) && Date.now() < options.deadline;
        options.onAttemptError?.({ target, attempt, error, willRetry: false, willFallBack: fallsBack });
        if (!fallsBack) throw error;
        break;
      }
    }
  }
  throw lastError ?? new GatewayError("model_not_found");
}
