import type { RequestListener, Server } from "node:http";
import { createGuardedHttpServer, renderGatewayErrorBody } from "@gateway/errors";
import { generateRequestId } from "@gateway/pipeline";

/** Options of {@link createGatewayServer}. */
export interface GatewayServerOptions {
  /**
   * `GATEWAY_REQUEST_TIMEOUT_MS`: the longest a request may take to arrive (headers and body);
   * then 408 `request_timeout`. Headers alone get at most 60 s of it.
   */
  requestTimeoutMs: number;
  /**
   * `GATEWAY_KEEP_ALIVE_TIMEOUT_MS`: how long an idle client connection stays open (Node's own
   * default, 5 s, is below load balancers' idle timeouts). Default 65 s.
   */
  keepAliveTimeoutMs?: number;
}

/**
 * The gateway's HTTP server around a request listener ({@link createGuardedHttpServer}): requests
 * that never reach the listener (Node's parser refusals, a request not received within
 * `requestTimeoutMs`, no `Host`, `CONNECT`) are still answered in the gateway error body with an
 * `x-request-id` and `connection: close`. The timeouts cover receiving the request only: a stream
 * may last longer.
 */
export function createGatewayServer(listener: RequestListener, options: GatewayServerOptions): Server {
  return createGuardedHttpServer(listener, {
    requestTimeoutMs: options.requestTimeoutMs,
    generateRequestId,
    renderErrorBody: renderGatewayErrorBody,
    ...(options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeoutMs: options.keepAliveTimeoutMs }),
  });
}

/**
 * Stops a gateway server gracefully: no new connections, idle ones closed at once, requests in
 * flight answered, and connections that turn idle closed within 100 ms (the long keep-alive
 * timeout would otherwise hold them open until the force). Connections still busy after
 * `forceAfterMs` are closed.
 */
export function closeGatewayServer(server: Server, forceAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const force = setTimeout(() => server.closeAllConnections(), forceAfterMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
