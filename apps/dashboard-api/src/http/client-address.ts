import type { Request } from "express";

/**
 * The client's address: `request.ip` (which honours `DASHBOARD_TRUST_PROXY` through Express's
 * `trust proxy`), else the socket's address.
 */
export function clientAddressOf(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? "unknown";
}
