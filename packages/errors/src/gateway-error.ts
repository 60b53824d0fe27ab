import { type ErrorCode, statusForCode } from "./error-codes.js";

const gatewayErrorMarker = Symbol.for("@gateway/errors.GatewayError");

/** Options accepted by the {@link GatewayError} constructor. */
export interface GatewayErrorOptions {
  /** Human-readable message; safe to show to the caller. */
  message?: string;
  /** The request field the error is about: a dotted path, or an array index. */
  param?: string | number | null;
  /** Structured, caller-safe details. Never put secrets or upstream internals here. */
  details?: Record<string, unknown> | null;
  /** Overrides the error `type` of the gateway body (defaults from the status). */
  type?: string;
  /** The original cause. Kept for logs, never rendered. */
  cause?: unknown;
  /** For 429s: seconds (number) or an HTTP date / provider value (string), sent as `Retry-After`. */
  retryAfter?: number | string;
  /**
   * Routing hint, never rendered: whether another attempt (the same target again, or the
   * next target of a route) may succeed. Unset: decided from the status.
   */
  retryable?: boolean;
}

/**
 * The one error class of the gateway. Every surface renders it through a renderer of this
 * package; `code` is stable and `status` always comes from the code table.
 */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | number | null;
  readonly details: Record<string, unknown> | null;
  readonly type: string | undefined;
  readonly retryAfter: number | string | undefined;
  /** Routing hint for retries and fallbacks; internal, never part of an error body. */
  readonly retryable: boolean | undefined;

  constructor(code: ErrorCode, options: GatewayErrorOptions = {}) {
    super(options.message ?? defaultMessage(code), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GatewayError";
    this.code = code;
    this.status = statusForCode(code);
    this.param = options.param ?? null;
    this.details = options.details ?? null;
    this.type = options.type;
    this.retryAfter = options.retryAfter;
    this.retryable = options.retryable;
    Object.defineProperty(this, gatewayErrorMarker, { value: true });
  }

  /**
   * True for any GatewayError, including one created by another copy of this package
   * (duplicate installs make `instanceof` unreliable).
   */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[gatewayErrorMarker] === true;
  }
}

/**
 * A native provider's own non-2xx answer, passed through unchanged (status and JSON payload).
 * Used for native decision providers, whose error payloads are part of their contract.
 */
export class ProviderPassthroughError extends GatewayError {
  readonly upstreamStatus: number;
  readonly payload: unknown;

  constructor(options: {
    status: number;
    payload: unknown;
    retryAfter?: number | string;
    details?: Record<string, unknown>;
    retryable?: boolean;
    cause?: unknown;
  }) {
    super("upstream_error", {
      message: `The provider answered with status ${options.status}.`,
      retryAfter: options.retryAfter,
      retryable: options.retryable,
      details: options.details,
      cause: options.cause,
    });
    this.name = "ProviderPassthroughError";
    this.upstreamStatus = options.status;
    this.payload = options.payload;
    Object.defineProperty(this, "status", { value: options.status });
    Object.defineProperty(this, passthroughMarker, { value: true });
  }

  static override isInstance(value: unknown): value is ProviderPassthroughError {
    return GatewayError.isInstance(value) && (value as unknown as Record<symbol, unknown>)[passthroughMarker] === true;
  }
}

const passthroughMarker = Symbol.for("@gateway/errors.ProviderPassthroughError");

function defaultMessage(code: ErrorCode): string {
  switch (code) {
    case "invalid_request":
      return "The request is invalid.";
    case "unsupported_feature":
      return "The request uses a feature that this model or provider does not support.";
    case "previous_response_not_found":
      return "The previous response was not found.";
    case "invalid_gateway_api_key":
      return "Missing, invalid, expired or revoked gateway API key.";
    case "unauthenticated":
      return "A valid session is required.";
    case "invalid_credentials":
      return "The email or password is incorrect.";
    case "permission_denied":
      return "You do not have permission to perform this action.";
    case "project_access_denied":
      return "This API key's project may not use this resource.";
    case "model_not_allowed":
      return "A model policy does not allow this model.";
    case "tool_not_allowed":
      return "A policy does not allow this MCP tool, prompt or resource.";
    case "guardrail_blocked":
      return "A guardrail blocked this request.";
    case "origin_rejected":
      return "Cross-origin request refused.";
    case "sso_required":
      return "This organization requires single sign-on.";
    case "model_not_found":
      return "The model is not available.";
    case "tool_not_found":
      return "The MCP tool, prompt or resource is not available.";
    case "not_found":
      return "Not found.";
    case "content_not_captured":
      return "No content was captured for this call.";
    case "request_timeout":
      return "The request deadline passed before the gateway could answer.";
    case "conflict":
      return "The resource conflicts with an existing one.";
    case "organization_selection_required":
      return "The account belongs to several organizations; choose one.";
    case "request_too_large":
      return "The request body is larger than the gateway accepts.";
    case "unsupported_media_type":
      return "The request body must be JSON (Content-Type: application/json).";
    case "request_headers_too_large":
      return "The request's headers are larger than the server accepts.";
    case "provider_limit_exceeded":
      return "The request exceeds a limit of the selected provider.";
    case "hard_budget_exceeded":
      return "A hard budget does not allow this call.";
    case "hard_budget_decision_unbounded":
      return "Decision calls cannot be bounded in cost and are refused under a hard budget.";
    case "hard_budget_unbounded_request":
      return "The request's worst-case cost cannot be bounded, so a hard budget refuses it.";
    case "mcp_authorization_failed":
      return "The MCP server's authorization expired and could not be refreshed; authorize it again in the dashboard.";
    case "gateway_rate_limit_exceeded":
      return "Rate limit exceeded.";
    case "upstream_rate_limited":
      return "The provider is rate limiting requests.";
    case "too_many_attempts":
      return "Too many attempts; try again later.";
    case "client_cancelled":
      return "The client closed the request.";
    case "internal_error":
      return "Internal error.";
    case "upstream_error":
      return "The provider failed to answer correctly.";
    case "service_unavailable":
      return "The service is temporarily unavailable.";
    case "upstream_timeout":
      return "The provider did not answer in time.";
  }
}
