import type { GatewayError } from "@gateway/errors";

/**
 * The `code` of a failed response's `error` (OpenAI's enumeration: `server_error`,
 * `rate_limit_exceeded`, `invalid_prompt`, ...) for a gateway error; the gateway's own code goes
 * in the stream's `error` event.
 */
export function responsesErrorCode(error: GatewayError): string {
  if (error.code === "upstream_rate_limited" || error.code === "gateway_rate_limit_exceeded") return "rate_limit_exceeded";
  if (error.code === "guardrail_blocked" || error.code === "invalid_request" || error.code === "unsupported_feature") return "invalid_prompt";
  return "server_error";
}
