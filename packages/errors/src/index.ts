export { errorStatusByCode, statusForCode, isErrorCode } from "./error-codes.js";
export type { ErrorCode } from "./error-codes.js";
export { GatewayError, ProviderPassthroughError } from "./gateway-error.js";
export type { GatewayErrorOptions } from "./gateway-error.js";
export { fromZodError, formatParamPath, isZodError } from "./from-zod-error.js";
export { fromHttpParserError } from "./from-http-parser-error.js";
export { createGuardedHttpServer, defaultConnectionCap, defaultHeadersTimeoutMs } from "./create-guarded-http-server.js";
export { guardConnections, markRequestStarted, defaultMaxConnections, defaultMaxConnectionsPerAddress, defaultWriteTimeoutMs } from "./guard-connections.js";
export type { ConnectionGuardOptions, ConnectionGuardStatus } from "./guard-connections.js";
export type { GuardedHttpServerOptions } from "./create-guarded-http-server.js";
export { normalizeError } from "./normalize-error.js";
export { parseJsonBody, defaultJsonMaxDepth, defaultJsonMaxValues, defaultJsonMaxObjectKeys, defaultJsonMaxArrayElements } from "./parse-json-body.js";
export type { ParseJsonBodyOptions } from "./parse-json-body.js";
export {
  renderGatewayErrorBody,
  renderAnthropicErrorBody,
  renderDashboardErrorBody,
  errorResponseHeaders,
  gatewayErrorType,
  anthropicErrorType,
} from "./render-error.js";
export type { GatewayErrorBody, AnthropicErrorBody, DashboardErrorBody } from "./render-error.js";
export { redactKnownSecrets, redactKnownSecretsInValue, redactSecrets, redactSecretsInValue, redactedMarker, secretEchoMinimumLength } from "./redact-secrets.js";
