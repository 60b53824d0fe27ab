import { GatewayError } from "@gateway/errors";

const connectFailureCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
]);

/** Gateway-side outcomes that another attempt cannot fix. */
const neverRetried = new Set(["client_cancelled", "request_timeout", "internal_error", "gateway_rate_limit_exceeded", "too_many_attempts"]);

/**
 * Whether a failed attempt may be retried or fall back to the next target:
 * a `GatewayError` with `retryable` set says so itself; otherwise 429 and 5xx statuses
 * (502, 503, 504, a native provider's own 5xx) are retryable, except the gateway's own
 * outcomes (`client_cancelled`, `request_timeout`, `internal_error`, gateway rate limits).
 * Plain errors are retryable when they (or their `cause`) are connect failures
 * (`ECONNREFUSED`, `ECONNRESET`, `UND_ERR_CONNECT_TIMEOUT`, ...). Aborts are not.
 */
export function isRetryableError(error: unknown): boolean {
  if (GatewayError.isInstance(error)) {
    if (error.retryable !== undefined) return error.retryable;
    if (neverRetried.has(error.code)) return false;
    return error.status === 429 || error.status >= 500;
  }
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth += 1) {
    const candidate = current as { name?: unknown; code?: unknown; cause?: unknown };
    if (candidate.name === "AbortError") return false;
    if (typeof candidate.code === "string" && connectFailureCodes.has(candidate.code)) return true;
    current = candidate.cause;
  }
  return false;
}
