import { GatewayError, ProviderPassthroughError } from "@gateway/errors";
import { isConnectFailure } from "./connect-failure.js";

/** Gateway-side outcomes that another attempt cannot fix. */
const neverRetried = new Set(["client_cancelled", "request_timeout", "internal_error", "gateway_rate_limit_exceeded", "too_many_attempts"]);

/**
 * Upstream statuses that repeating the same request may change: 408 (request timeout), 409
 * (conflict, e.g. a lock), 429 (rate limited) and every 5xx, as OpenAI's and Anthropic's own
 * SDKs retry them. 400, 401, 403, 404, 413 and 422 answer the same every time.
 */
export function isTransientUpstreamStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The provider's own status behind an error (`details.upstreamStatus`), or null for the gateway's own failures. */
function upstreamStatusOf(error: GatewayError): number | null {
  if (ProviderPassthroughError.isInstance(error)) return error.upstreamStatus;
  const status = error.details?.upstreamStatus;
  return typeof status === "number" ? status : null;
}

/**
 * Whether a failed attempt may be repeated on the SAME target. An error from a provider's answer
 * (it carries `details.upstreamStatus`) is retried only when that status is transient
 * ({@link isTransientUpstreamStatus}: 408, 409, 429, 5xx), whatever the error became at the
 * gateway: a provider's 401 is a 502 `upstream_error` to the caller, and still not retried.
 * Other gateway errors: never when `retryable` is false or a 4xx other than 408/409/429 (a
 * request the translation cannot represent is refused alike every time); else when `retryable`
 * is true or the status is 429 or 5xx, except the gateway's own outcomes (`client_cancelled`,
 * `request_timeout`, `internal_error`, gateway rate limits). Plain errors are retried when they
 * (or their `cause`) are connect failures (`ECONNREFUSED`, `ECONNRESET`,
 * `UND_ERR_CONNECT_TIMEOUT`, ...). Aborts are not. Whether the call then moves to the route's
 * next target is `allowsFallback`'s rule.
 */
export function isRetryableError(error: unknown): boolean {
  if (GatewayError.isInstance(error)) {
    if (neverRetried.has(error.code)) return false;
    const upstreamStatus = upstreamStatusOf(error);
    if (upstreamStatus !== null) return isTransientUpstreamStatus(upstreamStatus);
    if (error.retryable === false) return false;
    if (error.status < 500 && !isTransientUpstreamStatus(error.status)) return false;
    return error.retryable === true || error.status === 429 || error.status >= 500;
  }
  return isConnectFailure(error);
}
