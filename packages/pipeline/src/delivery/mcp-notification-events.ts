import { randomBytes } from "node:crypto";
import type { NotificationEvent } from "./deliver-notification.js";

/**
 * `mcp_server.authorization_failed`: an MCP server's OAuth grant expired and could not be
 * refreshed (the authorization server refused the refresh token, or there was none); its tool
 * calls fail until someone authorizes it again in the dashboard.
 */
export function createMcpAuthorizationFailedEvent(options: { serverId: string; serverName: string; reason: string; now?: Date }): NotificationEvent {
  return {
    id: `evt_${randomBytes(12).toString("hex")}`,
    type: "mcp_server.authorization_failed",
    createdAt: options.now ?? new Date(),
    title: `MCP server '${options.serverName}' needs to be authorized again`,
    text: `The OAuth grant of the MCP server '${options.serverName}' expired and could not be refreshed (${options.reason}). Its tools answer with an error until it is authorized again in the dashboard.`,
    data: { server_id: options.serverId, server_name: options.serverName, reason: options.reason },
  };
}
