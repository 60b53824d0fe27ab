import { GatewayError } from "./gateway-error.js";

/** The gateway error body of the spec. */
export interface GatewayErrorBody {
  error: {
    message: string;
    code: string | null;
    type: string | null;
    param: string | number | null;
    details: Record<string, unknown> | null;
  };
  request_id?: string;
}

/** The Anthropic-compatible error body. */
export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string };
  request_id?: string;
}

/** The dashboard error body. */
export interface DashboardErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

/** OpenAI-style error `type` for a status, used in the gateway body. */
export function gatewayErrorType(status: number): string {
  if (status === 400 || status === 413 || status === 422 || status === 431) return "invalid_request_error";
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 408 || status === 504) return "timeout_error";
  if (status === 424) return "budget_error";
  if (status === 429) return "rate_limit_error";
  if (status === 503) return "service_unavailable_error";
  if (status === 502) return "upstream_error";
  return "server_error";
}

/** Anthropic's error type name for a status (as Anthropic's own API uses them). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
    case 422:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
    case 424:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 408:
    case 504:
      return "timeout_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 503:
    case 529:
      return "overloaded_error";
    default:
      return status >= 400 && status < 500 ? "invalid_request_error" : "api_error";
  }
}

/** Renders the gateway error body: `{error:{message,code,type,param,details}, request_id}`. */
export function renderGatewayErrorBody(error: GatewayError, requestId?: string): GatewayErrorBody {
  const body: GatewayErrorBody = {
    error: {
      message: error.message,
      code: error.code,
      type: error.type ?? gatewayErrorType(error.status),
      param: error.param,
      details: error.details,
    },
  };
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

/** Renders the Anthropic-compatible body: `{type:"error", error:{type,message}, request_id}`. */
export function renderAnthropicErrorBody(error: GatewayError, requestId?: string): AnthropicErrorBody {
  const body: AnthropicErrorBody = {
    type: "error",
    error: { type: anthropicErrorType(error.status), message: error.message },
  };
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

/** Renders the dashboard body: `{error:{code,message,details}}`. */
export function renderDashboardErrorBody(error: GatewayError): DashboardErrorBody {
  const details: Record<string, unknown> = { ...(error.details ?? {}) };
  if (error.param !== null) details.param = error.param;
  return { error: { code: error.code, message: error.message, details } };
}

/** Response headers an error carries (`Retry-After` for 429s). */
export function errorResponseHeaders(error: GatewayError): Record<string, string> {
  if (error.retryAfter === undefined) return {};
  const value =
    typeof error.retryAfter === "number" ? String(Math.max(1, Math.ceil(error.retryAfter))) : error.retryAfter;
  return { "retry-after": value };
}
