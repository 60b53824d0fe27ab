// Local servers for tests of MCP clients and of the gateway's MCP side (no network beyond 127.0.0.1).
export { startLocalOAuthServer } from "./start-local-oauth-server.js";
export type { LocalOAuthServer, LocalOAuthServerOptions } from "./start-local-oauth-server.js";
export { createLocalMcpHandler, startLocalMcpServer } from "./start-local-mcp-server.js";
export type { LocalMcpHandler, LocalMcpServer, LocalMcpServerOptions, LocalMcpTool } from "./start-local-mcp-server.js";
