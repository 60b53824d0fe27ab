import { type ErrorCode, GatewayError, redactSecrets } from "@gateway/errors";
import { mapUpstreamError } from "../../map-upstream-error.js";
import type { UpstreamErrorInput } from "../../map-upstream-error.js";

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The `google.rpc.Status` of a Google error body (`{error: {code, message, status, details}}`). */
interface GoogleStatus {
  status: string | null;
  /** `ErrorInfo.reason` of the details (`API_KEY_INVALID`, `RATE_LIMIT_EXCEEDED`, ...). */
  reasons: string[];
  /** `RetryInfo.retryDelay` in whole seconds (`"23s"`, `"1.5s"` -> 2). */
  retryDelaySeconds: number | null;
}

/** Reads the status name, error reasons and retry delay of a Google error body. */
export function readGoogleStatus(body: unknown): GoogleStatus {
  const error = objectOf(objectOf(body).error);
  const details = Array.isArray(error.details) ? error.details.map(objectOf) : [];
  const reasons = details.map((detail) => detail.reason).filter((reason): reason is string => typeof reason === "string");
  const delay = details.map((detail) => detail.retryDelay).find((value): value is string => typeof value === "string");
  const seconds = delay === undefined ? null : Number.parseFloat(delay);
  return {
    status: typeof error.status === "string" ? error.status : null,
    reasons,
    retryDelaySeconds: seconds !== null && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null,
  };
}

/**
 * Maps a non-2xx answer of the Gemini API (or Vertex AI) with Google's error body: as every
 * provider's ({@link mapUpstreamError}: RESOURCE_EXHAUSTED 429 -> `upstream_rate_limited`,
 * INVALID_ARGUMENT 400 -> `invalid_request` with Google's message, PERMISSION_DENIED 403 and
 * UNAUTHENTICATED 401 -> 502 `upstream_error` (the gateway's credential, Google's text not
 * shown), NOT_FOUND -> `model_not_found`), and besides: a rejected API key, which Google answers
 * 400 INVALID_ARGUMENT (`API_KEY_INVALID`), is the gateway's credential too; UNAVAILABLE (503)
 * -> 503 `service_unavailable`, DEADLINE_EXCEEDED (504) -> `upstream_timeout`, both retryable;
 * a 429 without `Retry-After` takes the `RetryInfo.retryDelay` of the body. The message is
 * redacted of the call's secrets (the API key, the token).
 */
export function mapGeminiError(input: UpstreamErrorInput): GatewayError {
  const google = readGoogleStatus(input.body);
  const details = { provider: input.provider, upstreamStatus: input.status, ...(google.status === null ? {} : { provider_error_status: google.status }) };
  if (google.reasons.includes("API_KEY_INVALID") || google.reasons.includes("API_KEY_SERVICE_BLOCKED")) {
    return new GatewayError("upstream_error", {
      message: `The provider '${input.provider}' refused the gateway's credential or account (status ${input.status}).`,
      retryable: true,
      details,
    });
  }
  if (input.status === 503 || google.status === "UNAVAILABLE") {
    return new GatewayError("service_unavailable", { message: `The provider '${input.provider}' is unavailable (status ${input.status}).`, retryable: true, details });
  }
  if (input.status === 504 || google.status === "DEADLINE_EXCEEDED") {
    return new GatewayError("upstream_timeout", { message: `The provider '${input.provider}' did not answer in time.`, retryable: true, details });
  }
  const headers = input.status === 429 && input.headers["retry-after"] === undefined && google.retryDelaySeconds !== null
    ? { ...input.headers, "retry-after": String(google.retryDelaySeconds) }
    : input.headers;
  const mapped = mapUpstreamError({ ...input, headers });
  if (google.status === null) return mapped;
  return new GatewayError(mapped.code, {
    message: mapped.message,
    retryable: mapped.retryable,
    ...(mapped.retryAfter === undefined ? {} : { retryAfter: mapped.retryAfter }),
    details: { ...(mapped.details ?? {}), provider_error_status: google.status },
  });
}

const streamCodeByStatus: Record<string, ErrorCode> = {
  RESOURCE_EXHAUSTED: "upstream_rate_limited",
  UNAVAILABLE: "service_unavailable",
  DEADLINE_EXCEEDED: "upstream_timeout",
};

/**
 * Turns an error object Google writes into a stream (`{error: {code, message, status}}`) into a
 * GatewayError (not retryable: the answer had started); its message is redacted of `secrets`.
 */
export function gatewayErrorFromGeminiStreamError(payload: unknown, secrets: readonly (string | null | undefined)[]): GatewayError {
  const error = objectOf(objectOf(payload).error);
  const status = readGoogleStatus(payload).status ?? "UNKNOWN";
  const text = typeof error.message === "string" && error.message !== "" ? redactSecrets(error.message, secrets).slice(0, 1000) : "The provider stream failed.";
  return new GatewayError(Object.hasOwn(streamCodeByStatus, status) ? streamCodeByStatus[status]! : "upstream_error", {
    message: `The provider failed mid-stream (${status}): ${text}`,
    retryable: false,
    details: { provider_error_type: status },
  });
}
