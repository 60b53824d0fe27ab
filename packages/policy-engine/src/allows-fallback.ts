import { GatewayError } from "@gateway/errors";
import { isConnectFailure } from "./connect-failure.js";

/** Gateway-side outcomes that no other target can change. */
const gatewayOutcomes = new Set(["client_cancelled", "request_timeout", "internal_error", "gateway_rate_limit_exceeded", "too_many_attempts"]);

/**
 * Whether a failed call may go on to the route's next target (the route's fallback rule):
 * a `GatewayError` with `retryable` set says so itself (the adapters set it: true for 401, 402,
 * 403 and 404 from the provider, which another connection with other credentials or models may
 * not meet, for 408, 429 and 5xx, and for a request the translation cannot represent; false for
 * 400, 409, 413 and 422, which any target would refuse alike); otherwise 429 and 5xx statuses,
 * except the gateway's own outcomes (`client_cancelled`, `request_timeout`, `internal_error`,
 * gateway rate limits). Plain errors fall back when they (or their `cause`) are connect failures.
 * Whether the SAME target is tried again is {@link isRetryableError}'s stricter rule.
 */
export function allowsFallback(error: unknown): boolean {
  if (GatewayError.isInstance(error)) {
    if (error.retryable !== undefined) return error.retryable;
    if (gatewayOutcomes.has(error.code)) return false;
    return error.status === 429 || error.status >= 500;
  }
  return isConnectFailure(error);
}
