import { GatewayError, redactSecrets, redactSecretsInValue } from "@gateway/errors";
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { brokenStreamMarker } from "./guard-upstream-fetch.js";

const unreachableCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * What a failed exchange with an upstream MCP server means for the caller, as a `GatewayError`:
 *
 * - the server's own JSON-RPC error: 502 `upstream_error` with `details.jsonrpc_error` `{ code, message, data }`;
 * - no answer in time: 504 `upstream_timeout`;
 * - unreachable (refused, unknown host): 503 `service_unavailable`;
 * - it crashed or closed the connection mid-call, answered malformed JSON or JSON-RPC, or an HTTP
 *   error status: 502 `upstream_error`;
 * - 401/403 after the credential was renewed: 424 `mcp_authorization_failed`.
 *
 * A `GatewayError` (a refused grant refresh) and an abort of the caller's signal pass unchanged.
 * Text the server sent (its JSON-RPC error message and data) is relayed with `secrets` (the
 * server's token) and key shapes redacted.
 */
export function mapUpstreamError(thrown: unknown, server: { name: string; id: string }, secrets: readonly (string | null | undefined)[] = []): unknown {
  if (GatewayError.isInstance(thrown)) return thrown;
  if (thrown instanceof Error && thrown.name === "AbortError") return thrown;
  const details = { server: server.name, server_id: server.id };
  const failed = (message: string, extra: Record<string, unknown> = {}) =>
    new GatewayError("upstream_error", { message: `The MCP server '${server.name}' ${message}`, details: { ...details, ...extra }, cause: thrown });
  if (ProtocolError.isInstance(thrown)) {
    const data = thrown.data as Record<string, unknown> | undefined;
    if (data !== undefined && typeof data === "object" && data !== null && data["ai-gateway/upstream"] === brokenStreamMarker["ai-gateway/upstream"]) {
      return failed("closed the connection before answering.");
    }
    const message = redactSecrets(thrown.message, secrets);
    return failed(`answered an error: ${message}`, {
      jsonrpc_error: { code: thrown.code, message, ...(thrown.data === undefined ? {} : { data: redactSecretsInValue(thrown.data, secrets) }) },
    });
  }
  if (SdkHttpError.isInstance(thrown)) {
    if (thrown.status === 401 || thrown.status === 403) {
      return new GatewayError("mcp_authorization_failed", {
        message: `The MCP server '${server.name}' refused the gateway's credential (HTTP ${thrown.status}); authorize it again in the dashboard.`,
        details,
        cause: thrown,
      });
    }
    return failed(`answered HTTP ${thrown.status}.`, { status: thrown.status });
  }
  if (SdkError.isInstance(thrown)) {
    if (thrown.code === SdkErrorCode.RequestTimeout) {
      return new GatewayError("upstream_timeout", { message: `The MCP server '${server.name}' did not answer in time.`, details, cause: thrown });
    }
    if (thrown.code === SdkErrorCode.ConnectionClosed) return failed("closed the connection before answering.");
    if (thrown.code === SdkErrorCode.InvalidResult) return failed("answered a malformed result.");
    if (isUnreachable(thrown)) return unreachable(server, thrown);
    return failed(`could not be used (${redactSecrets(thrown.message, secrets)}).`);
  }
  if (isUnreachable(thrown)) return unreachable(server, thrown);
  if (thrown instanceof SyntaxError || (thrown instanceof Error && thrown.name === "ZodError")) return failed("answered malformed JSON-RPC.");
  if (thrown instanceof TypeError) return failed("closed the connection before answering.");
  return failed("failed.");
}

function unreachable(server: { name: string; id: string }, thrown: unknown): GatewayError {
  return new GatewayError("service_unavailable", {
    message: `The MCP server '${server.name}' is unreachable.`,
    details: { server: server.name, server_id: server.id },
    cause: thrown,
  });
}

/** Whether the connection could not be made (`fetch failed` keeps the system error in its cause chain). */
function isUnreachable(thrown: unknown): boolean {
  let current: unknown = thrown;
  for (let depth = 0; depth < 6 && current !== null && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && unreachableCodes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
