// The MCP endpoint of the gateway
export { createMcpGateway } from "./gateway/create-mcp-gateway.js";
export type { McpGateway, McpGatewayRequestContext, McpGatewaySettings } from "./gateway/create-mcp-gateway.js";

// Upstream MCP servers: the client pool and the grants it authenticates with
export { createMcpUpstreamPool } from "./upstream/create-mcp-upstream-pool.js";
export type { McpServerCatalog, McpUpstreamPool, McpUpstreamPoolSettings } from "./upstream/create-mcp-upstream-pool.js";
export { createMcpGrantRefresher } from "./grants/create-mcp-grant-refresher.js";
export type { McpGrantRefresher, McpGrantRefresherSettings } from "./grants/create-mcp-grant-refresher.js";
export type { McpGrantStore, StoredMcpGrant } from "./grants/mcp-grant-store.js";
