import { GatewayError } from "@gateway/errors";
import { OutboundAddressRefusedError } from "../outbound/outbound-address-refused-error.js";

/** Why the transport aborted a call itself: the caller left, or one of its limits passed. */
export type AbortReason = "client" | "deadline" | "total" | "first-byte" | "idle" | "duration";

/** Whether the transport aborted a call itself (`reason`), and the limit that passed (`limitMs`). */
export interface AbortState {
  reason: AbortReason | null;
  limitMs: number;
}

const unreachableCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);
const resetCodes = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED", "UND_ERR_RES_CONTENT_LENGTH_MISMATCH"]);
const timeoutCodes = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

/**
 * Maps a network-level failure to a GatewayError. `abort.reason` says whether the gateway
 * aborted the request itself (the caller left, or a limit of `abort.limitMs` passed).
 */
export function mapTransportError(error: unknown, abort: AbortState, provider: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  const refused = OutboundAddressRefusedError.find(error);
  if (refused !== null) {
    return new GatewayError("upstream_error", {
      message: `The connection '${provider}' is refused by the outbound address policy: ${refused.reason}`,
      retryable: false,
      details: { provider, rule: `outbound_address_${refused.refusal.rule}`, address_kind: refused.refusal.category },
      cause: refused,
    });
  }
  if (abort.reason === "client") return cancelledError(provider, error);
  if (abort.reason !== null) return timeoutError(abort.reason, provider, abort.limitMs, error);
  const code = errorCode(error);
  if (code !== undefined && timeoutCodes.has(code)) {
    return new GatewayError("upstream_timeout", {
      message: `The provider '${provider}' did not answer in time.`,
      retryable: true, details: { provider },
      cause: error,
    });
  }
  if (code !== undefined && unreachableCodes.has(code)) {
    return new GatewayError("service_unavailable", {
      message: `Could not connect to the provider '${provider}'.`,
      retryable: true, details: { provider },
      cause: error,
    });
  }
  if (code !== undefined && resetCodes.has(code)) {
    return new GatewayError("upstream_error", {
      message: `The connection to the provider '${provider}' was closed unexpectedly.`,
      retryable: true, details: { provider },
      cause: error,
    });
  }
  return new GatewayError("upstream_error", {
    message: `The request to the provider '${provider}' failed.`,
    retryable: true, details: { provider },
    cause: error,
  });
}

/** 499 `client_cancelled`: the caller went away. */
export function cancelledError(provider: string, cause?: unknown): GatewayError {
  return new GatewayError("client_cancelled", { retryable: false, details: { provider }, cause });
}

/**
 * 504 `upstream_timeout` for a limit that passed. Retryable (another attempt or target may
 * answer in time) unless the request deadline itself passed or the stream had already started
 * flowing to the caller (idle, duration).
 */
export function timeoutError(reason: Exclude<AbortReason, "client">, provider: string, limitMs: number, cause?: unknown): GatewayError {
  const messages: Record<typeof reason, string> = {
    deadline: `The provider '${provider}' did not answer before the request deadline.`,
    total: `The provider '${provider}' did not answer within ${limitMs} ms.`,
    "first-byte": `The provider '${provider}' did not start streaming within ${limitMs} ms.`,
    idle: `The provider '${provider}' stream went silent for ${limitMs} ms.`,
    duration: `The provider '${provider}' stream exceeded its maximum duration of ${limitMs} ms.`,
  };
  return new GatewayError("upstream_timeout", {
    message: messages[reason],
    retryable: reason === "total" || reason === "first-byte",
    details: { provider },
    cause,
  });
}

/** The first known network error code in `error`, its `errors` (an AggregateError's first) or its causes. */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (timeoutCodes.has(code) || unreachableCodes.has(code) || resetCodes.has(code))) {
      return code;
    }
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      current = errors[0];
      continue;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
