import { type ErrorCode, GatewayError } from "@gateway/errors";
import { isJsonObject } from "./request-guards.js";

const codeByAnthropicType: Record<string, ErrorCode> = {
  overloaded_error: "service_unavailable",
  rate_limit_error: "upstream_rate_limited",
  timeout_error: "upstream_timeout",
  api_error: "upstream_error",
};

/** Turns an Anthropic in-stream `error` payload (`{type:"error", error:{type,message}}`) into a GatewayError. */
export function gatewayErrorFromAnthropicStreamError(payload: unknown): GatewayError {
  const error = isJsonObject(payload) && isJsonObject(payload.error) ? payload.error : {};
  const type = typeof error.type === "string" ? error.type : "api_error";
  const message = typeof error.message === "string" && error.message !== "" ? error.message : "The provider stream failed.";
  return new GatewayError(codeByAnthropicType[type] ?? "upstream_error", {
    message: `The provider failed mid-stream (${type}): ${message}`,
    details: { retryable: false, provider_error_type: type },
  });
}

/** Turns an OpenAI in-stream error payload (`{error:{message,type,code}}`) into a GatewayError. */
export function gatewayErrorFromChatStreamError(payload: unknown): GatewayError {
  const error = isJsonObject(payload) && isJsonObject(payload.error) ? payload.error : {};
  const type = typeof error.type === "string" ? error.type : typeof error.code === "string" ? error.code : "server_error";
  const message = typeof error.message === "string" && error.message !== "" ? error.message : "The provider stream failed.";
  const code: ErrorCode = /rate_limit/.test(type) ? "upstream_rate_limited" : /timeout/.test(type) ? "upstream_timeout" : "upstream_error";
  return new GatewayError(code, {
    message: `The provider failed mid-stream (${type}): ${message}`,
    details: { retryable: false, provider_error_type: type },
  });
}

/** Any failure while reading an upstream stream, as a GatewayError. */
export function gatewayErrorFromStreamFailure(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  return new GatewayError("upstream_error", {
    message: "The provider stream failed before it completed.",
    details: { retryable: false },
    cause: error,
  });
}

/** The provider stream ended without its terminal event. */
export function truncatedStreamError(): GatewayError {
  return new GatewayError("upstream_error", {
    message: "The provider stream ended before it completed.",
    details: { retryable: false },
  });
}

/** A provider stream event that is not valid JSON. */
export function malformedStreamEventError(): GatewayError {
  return new GatewayError("upstream_error", {
    message: "The provider sent a stream event that is not valid JSON.",
    details: { retryable: false },
  });
}

/** More tool-call arguments arrived for a call whose arguments were already complete JSON. */
export function malformedToolArgumentsError(): GatewayError {
  return new GatewayError("upstream_error", {
    message: "The provider sent tool call arguments after the call's JSON was complete.",
    details: { retryable: false },
  });
}
