import { GatewayError, redactSecrets } from "@gateway/errors";

/** Input of {@link mapUpstreamError}: a non-2xx answer of an OpenAI- or Anthropic-kind provider. */
export interface UpstreamErrorInput {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, if any. */
  body: unknown;
  /** Connection name (for messages). */
  provider: string;
  /** Strings that must never appear in a message (the connection credential). */
  secrets?: readonly (string | null | undefined)[];
}

const maxMessageLength = 1000;

/**
 * Maps a provider's non-2xx answer to a GatewayError with `retryable` (true when another
 * target of the route may succeed; whether the same target is tried again is decided by the
 * upstream status in `details.upstreamStatus`, see `isRetryableError` of `@gateway/policy-engine`):
 * 429 -> `upstream_rate_limited` with `Retry-After` passed through exactly as given;
 * 400/422 -> `invalid_request`; 401/402/403 -> 502 `upstream_error` (the gateway's own
 * credential or account is at fault, so the provider's text is not shown); 404 -> `model_not_found`;
 * 408 -> 504 `upstream_timeout`; 413 -> `request_too_large`; 5xx -> 502 `upstream_error`.
 * Client-side (4xx) errors carry the provider's message text only (credential redacted);
 * 5xx bodies are never shown (they may hold internals).
 */
export function mapUpstreamError(input: UpstreamErrorInput): GatewayError {
  const { status, provider } = input;
  const providerMessage = extractProviderMessage(input.body, input.secrets ?? []);
  const details = { provider, upstreamStatus: status };
  if (status === 429) {
    const retryAfter = input.headers["retry-after"];
    return new GatewayError("upstream_rate_limited", {
      message: providerMessage ?? `The provider '${provider}' is rate limiting requests.`,
      retryable: true,
      details,
      ...(retryAfter === undefined || retryAfter === "" ? {} : { retryAfter }),
    });
  }
  if (status === 401 || status === 402 || status === 403) {
    return new GatewayError("upstream_error", {
      message: `The provider '${provider}' refused the gateway's credential or account (status ${status}).`,
      retryable: true,
      details,
    });
  }
  if (status === 404) {
    return new GatewayError("model_not_found", {
      message: providerMessage ?? `The provider '${provider}' does not know this model.`,
      retryable: true,
      details,
    });
  }
  if (status === 408) {
    return new GatewayError("upstream_timeout", {
      message: `The provider '${provider}' did not answer in time.`,
      retryable: true,
      details,
    });
  }
  if (status === 413) {
    return new GatewayError("request_too_large", {
      message: providerMessage ?? `The request is too large for the provider '${provider}'.`,
      retryable: false,
      details,
    });
  }
  if (status >= 400 && status < 500) {
    return new GatewayError("invalid_request", {
      message: providerMessage ?? `The provider '${provider}' rejected the request (status ${status}).`,
      retryable: false,
      details,
    });
  }
  if (status >= 500) {
    return new GatewayError("upstream_error", {
      message: `The provider '${provider}' failed (status ${status}).`,
      retryable: true,
      details,
    });
  }
  return new GatewayError("upstream_error", {
    message: `The provider '${provider}' answered with an unexpected status (${status}).`,
    retryable: false,
      details,
  });
}

/** The provider's error message text (`error.message`, or a few common alternatives), redacted (`redactSecrets`) and capped. */
function extractProviderMessage(body: unknown, secrets: readonly (string | null | undefined)[]): string | undefined {
  let message: unknown;
  if (typeof body === "object" && body !== null) {
    const record = body as Record<string, unknown>;
    const error = record.error;
    if (typeof error === "object" && error !== null) message = (error as Record<string, unknown>).message;
    else if (typeof error === "string") message = error;
    message ??= record.message;
    if (message === undefined && typeof record.detail === "string") message = record.detail;
  }
  if (typeof message !== "string" || message.trim() === "") return undefined;
  // The credential, echoes of it (without its prefix, masked, cut short), key shapes and bearer tokens.
  const text = redactSecrets(message, secrets);
  return text.length > maxMessageLength ? `${text.slice(0, maxMessageLength)}…` : text;
}
