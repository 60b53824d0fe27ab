import { type ErrorCode, GatewayError } from "@gateway/errors";

const codeByAnthropicType: Record<string, ErrorCode> = {
  overloaded_error: "service_unavailable",
  rate_limit_error: "upstream_rate_limited",
  timeout_error: "upstream_timeout",
  api_error: "upstream_error",
};

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Turns an Anthropic in-stream `error` payload (`{type:"error", error:{type,message}}`) into a GatewayError. */
export function gatewayErrorFromAnthropicStreamError(payload: unknown): GatewayError {
  const error = objectOf(objectOf(payload).error);
  const type = typeof error.type === "string" ? error.type : "api_error";
  const message = typeof error.message === "string" && error.message !== "" ? error.message : "The provider stream failed.";
  return new GatewayError(Object.hasOwn(codeByAnthropicType, type) ? codeByAnthropicType[type]! : "upstream_error", {
    message: `The provider failed mid-stream (${type}): ${message}`,
    retryable: false,
    details: { provider_error_type: type },
  });
}

/** Turns an OpenAI in-stream error payload (`{error:{message,type,code}}`) into a GatewayError. */
export function gatewayErrorFromChatStreamError(payload: unknown): GatewayError {
  const error = objectOf(objectOf(payload).error);
  const type = typeof error.type === "string" ? error.type : typeof error.code === "string" ? error.code : "server_error";
  const message = typeof error.message === "string" && error.message !== "" ? error.message : "The provider stream failed.";
  const code: ErrorCode = /rate_limit/.test(type) ? "upstream_rate_limited" : /timeout/.test(type) ? "upstream_timeout" : "upstream_error";
  return new GatewayError(code, {
    message: `The provider failed mid-stream (${type}): ${message}`,
    retryable: false,
    details: { provider_error_type: type },
  });
}

/** Any failure while reading an upstream stream, as a GatewayError. */
export function gatewayErrorFromStreamFailure(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  return new GatewayError("upstream_error", {
    message: "The provider stream failed before it completed.",
    retryable: false,
    cause: error,
  });
}

/** The provider stream ended without its terminal event. */
export function truncatedStreamError(): GatewayError {
  return new GatewayError("upstream_error", {
    message: "The provider stream ended before it completed.",
    retryable: false,
  });
}

/**
 * A provider stream event that is not valid JSON, or not a valid event of its wire format;
 * `problem` says what is wrong without echoing the event.
 */
export function malformedStreamEventError(problem: string): GatewayError {
  return new GatewayError("upstream_error", {
    message: `The provider sent an invalid stream event: ${problem}.`,
    retryable: false,
  });
}

/** The error as a caller may see it: an internal failure loses its message (it may hold internals). */
export function callerSafeError(error: GatewayError): GatewayError {
  return error.code === "internal_error" ? new GatewayError("internal_error") : error;
}

/**
 * Turns an OpenAI Responses stream failure into a GatewayError: an `error` event
 * (`{type:"error", code, message, param}`, or the same fields nested under `error`) or a
 * `response.failed` event (`response.error: {code, message}`).
 */
export function gatewayErrorFromResponsesStreamError(payload: unknown): GatewayError {
  const event = objectOf(payload);
  const fields = event.type === "response.failed" ? objectOf(objectOf(event.response).error) : Object.keys(objectOf(event.error)).length > 0 ? objectOf(event.error) : event;
  const type = typeof fields.code === "string" && fields.code !== "" ? fields.code : typeof fields.type === "string" && fields.type !== "error" ? fields.type : "server_error";
  const message = typeof fields.message === "string" && fields.message !== "" ? fields.message : "The provider stream failed.";
  const code: ErrorCode = /rate_limit/.test(type) ? "upstream_rate_limited" : /timeout/.test(type) ? "upstream_timeout" : "upstream_error";
  return new GatewayError(code, {
    message: `The provider failed mid-stream (${type}): ${message}`,
    retryable: false,
    details: { provider_error_type: type },
  });
}
