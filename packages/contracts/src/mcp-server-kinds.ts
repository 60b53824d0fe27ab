import { z } from "zod";

/** The transports an MCP server can be reached over. */
export const mcpTransports = ["streamable_http", "sse"] as const;

/** An MCP server's transport (one of {@link mcpTransports}). */
export const mcpTransportSchema = z.enum(mcpTransports);

/** An MCP server's transport upstream. */
export type McpTransport = z.infer<typeof mcpTransportSchema>;

/** How the gateway can authenticate to an MCP server. */
export const mcpAuthKinds = ["none", "bearer", "oauth"] as const;

/** How the gateway authenticates to an MCP server (one of {@link mcpAuthKinds}). */
export const mcpAuthKindSchema = z.enum(mcpAuthKinds);

/** How the gateway authenticates to an MCP server. */
export type McpAuthKind = z.infer<typeof mcpAuthKindSchema>;
