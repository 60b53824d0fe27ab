/**
 * The single table of stable error codes and the HTTP status each one answers with.
 * Codes are part of the public contract: never rename one, only add.
 */
export const errorStatusByCode = {
  // 400
  invalid_request: 400,
  unsupported_feature: 400,
  // The Responses API's `previous_response_id` names no stored response the caller can continue (OpenAI's code).
  previous_response_not_found: 400,
  // 401
  invalid_gateway_api_key: 401,
  unauthenticated: 401,
  invalid_credentials: 401,
  // 403
  permission_denied: 403,
  project_access_denied: 403,
  model_not_allowed: 403,
  tool_not_allowed: 403,
  guardrail_blocked: 403,
  origin_rejected: 403,
  sso_required: 403,
  // 404
  model_not_found: 404,
  tool_not_found: 404,
  not_found: 404,
  // The activity call exists but no content was captured for it (capture off, decisions, or expired).
  content_not_captured: 404,
  // 408
  request_timeout: 408,
  // 409
  conflict: 409,
  organization_selection_required: 409,
  // 413
  request_too_large: 413,
  // 415
  unsupported_media_type: 415,
  // 431: the request's header section is larger than the server reads (refused by the HTTP parser).
  request_headers_too_large: 431,
  // 422: the request is valid under the contract but exceeds what the selected provider
  // can answer (for example a rubric larger than the provider's own limit).
  provider_limit_exceeded: 422,
  // 424
  hard_budget_exceeded: 424,
  hard_budget_decision_unbounded: 424,
  // A request whose worst-case cost has no bound (no output cap anywhere, a file part on a model
  // without a known context window, a tool the provider runs itself) under a hard budget.
  hard_budget_unbounded_request: 424,
  // An MCP server's stored OAuth grant expired and could not be refreshed: someone has to
  // authorize the server again in the dashboard.
  mcp_authorization_failed: 424,
  // 429
  gateway_rate_limit_exceeded: 429,
  upstream_rate_limited: 429,
  too_many_attempts: 429,
  // 499: never sent to a client (it has gone); recorded on usage events.
  client_cancelled: 499,
  // 500
  internal_error: 500,
  // 502
  upstream_error: 502,
  // 503
  service_unavailable: 503,
  // 504
  upstream_timeout: 504,
} as const satisfies Record<string, number>;

/** A stable, documented error code. */
export type ErrorCode = keyof typeof errorStatusByCode;

/** The HTTP status for a code, from the single code-to-status table. */
export function statusForCode(code: ErrorCode): number {
  return errorStatusByCode[code];
}

/** Whether a string is one of the documented error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(errorStatusByCode, value);
}
