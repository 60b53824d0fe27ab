import { GatewayError, normalizeError } from "@gateway/errors";
import type { McpCallRequest } from "@gateway/pipeline";
import { ProtocolError } from "@modelcontextprotocol/server";

/** JSON-RPC 2.0 error codes the gateway answers with. */
const invalidParams = -32602;
const internalError = -32603;
const invalidRequest = -32600;

/** Refusals a model can read and act on (wait, rephrase, ask an admin): tool results with `isError`. */
const toolExecutionCodes = new Set(["mcp_authorization_failed", "guardrail_blocked", "gateway_rate_limit_exceeded", "hard_budget_exceeded"]);

/**
 * How a failed MCP call reaches the client. Tools, as the MCP specification splits them:
 *
 * - protocol errors (JSON-RPC errors): an unknown or denied tool, invalid arguments (-32602);
 *   the server's own JSON-RPC error, relayed (its code when it is -32602 or an application
 *   code outside the reserved range, else -32603); a server that crashed, is unreachable, timed
 *   out or answered malformed JSON-RPC (-32603); the gateway's deadline (-32603);
 * - tool execution errors (a result with `isError: true` and the reason as text): a grant that
 *   could not be refreshed, a guardrail block, a rate limit or budget refusal.
 *
 * Prompts and resources have no execution errors: every failure is a JSON-RPC error. Each
 * error's `data` carries the gateway's `code` and the `request_id` of its usage event. Returns
 * the tool result to answer with, or throws the `ProtocolError`.
 */
export function answerMcpError(thrown: unknown, input: { request: McpCallRequest; requestId: string }): { content: { type: "text"; text: string }[]; isError: true } {
  const error = normalizeError(thrown);
  const data: Record<string, unknown> = { code: error.code, request_id: input.requestId };
  if (input.request.kind === "tool" && toolExecutionCodes.has(error.code)) {
    const retry = error.retryAfter === undefined || error.retryAfter === null ? "" : ` Retry after ${error.retryAfter} s.`;
    return { content: [{ type: "text", text: `${error.message}${retry}` }], isError: true };
  }
  switch (error.code) {
    case "tool_not_found":
      throw new ProtocolError(invalidParams, error.message, data);
    case "tool_not_allowed":
      throw new ProtocolError(invalidParams, error.message, { ...data, ...(error.details ?? {}) });
    case "invalid_request":
      throw new ProtocolError(invalidParams, error.message, { ...data, ...(error.param === null ? {} : { param: error.param }) });
    case "invalid_gateway_api_key":
      throw new ProtocolError(invalidRequest, error.message, data);
    case "upstream_error": {
      const relayed = relayedUpstreamError(error);
      if (relayed !== null) throw new ProtocolError(relayed.code, relayed.message, { ...data, ...(relayed.data === undefined ? {} : { upstream_data: relayed.data }) });
      throw new ProtocolError(internalError, error.message, { ...data, ...serverOf(error) });
    }
    default:
      throw new ProtocolError(internalError, error.code === "internal_error" ? "Internal error." : error.message, { ...data, ...serverOf(error) });
  }
}

/** The upstream's own JSON-RPC error, when the client can act on its code (invalid params, or an application code). */
function relayedUpstreamError(error: GatewayError): { code: number; message: string; data?: unknown } | null {
  const upstream = error.details?.jsonrpc_error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (upstream === undefined || typeof upstream.code !== "number" || typeof upstream.message !== "string") return null;
  const reserved = upstream.code >= -32768 && upstream.code <= -32000;
  if (reserved && upstream.code !== invalidParams) return null;
  return { code: upstream.code, message: upstream.message, ...(upstream.data === undefined ? {} : { data: upstream.data }) };
}

function serverOf(error: GatewayError): Record<string, unknown> {
  const server = error.details?.server;
  return typeof server === "string" ? { server } : {};
}
