import type { SnapshotMcpServer } from "@gateway/contracts";
import type { McpCapabilityKind } from "@gateway/policy-engine";

/** One call on an MCP server, as the MCP call endpoint hands it to the upstream. */
export interface McpUpstreamCall {
  server: SnapshotMcpServer;
  /** `tool`: tools/call; `prompt`: prompts/get; `resource`: resources/read. */
  kind: McpCapabilityKind;
  /** The tool's or prompt's name, or the resource's URI, as the server knows it. */
  name: string;
  /** Tool or prompt arguments (after the input guardrails). */
  arguments: Record<string, unknown>;
  /** Aborted when the caller leaves or the request deadline passes. */
  signal: AbortSignal;
  /** Epoch ms after which the call is abandoned. */
  deadline: number;
  requestId: string;
}

/**
 * What the pipeline needs of the MCP servers (the app wires `@gateway/mcp`'s upstream in): one
 * call, answered with the server's result as MCP JSON (`CallToolResult`, `GetPromptResult`,
 * `ReadResourceResult`). Failures are `GatewayError`s: `upstream_timeout`, `upstream_error` (a
 * crash, a malformed answer, or the server's own JSON-RPC error in `details.jsonrpc_error`),
 * `service_unavailable`, `mcp_authorization_failed`.
 */
export interface McpUpstream {
  call(call: McpUpstreamCall): Promise<unknown>;
  /**
   * The tools and prompts the server listed (cached by the upstream), when it keeps a catalog:
   * a call of a name the server did not list is answered from it (`tool_not_found`) without
   * calling the server.
   */
  catalog?(server: SnapshotMcpServer): Promise<McpListedNames>;
}

/** What {@link McpUpstream.catalog} needs of a server's catalog: the names of its tools and prompts. */
export interface McpListedNames {
  tools: readonly { name: string }[];
  prompts: readonly { name: string }[];
}
