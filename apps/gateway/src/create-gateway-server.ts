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
  /** `GATEWAY_HEADERS_TIMEOUT_MS`: how long a connection may take to send a request's headers (default 20 s): then 408 and closed. */
  headersTimeoutMs?: number;
  /** `GATEWAY_WRITE_TIMEOUT_MS`: a client that takes none of its waiting answer bytes for this long is disconnected (default 30 s; 0: never). */
  writeTimeoutMs?: number;
  /** `GATEWAY_MAX_CONNECTIONS`: most open client connections (default 10,000, at most half the open-file limit). */
  maxConnections?: number | undefined;
  /** `GATEWAY_MAX_CONNECTIONS_PER_ADDRESS`: most open connections from one client address (default 1,000). */
  maxConnectionsPerAddress?: number;
}

/**
 * The gateway's HTTP server around a request listener ({@link createGuardedHttpServer}): requests
 * that never reach the listener (Node's parser refusals, a request not received within
 * `requestTimeoutMs`, no `Host`, `CONNECT`) are still answered in the gateway error body with an
 * `x-request-id` and `connection: close`. The timeouts cover receiving the request only: a stream
 * may last longer. Open connections are capped (in all and per client address; silent and idle
 * ones make room first), a request answered before its body arrived closes its connection, and
 * a client that stops reading its answer is disconnected after `writeTimeoutMs`.
 */
export function createGatewayServer(listener: RequestListener, options: GatewayServerOptions): Server {
  return createGuardedHttpServer(listener, {
    requestTimeoutMs: options.requestTimeoutMs,
    generateRequestId,
    renderErrorBody: renderGatewayErrorBody,
    ...(options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeoutMs: options.keepAliveTimeoutMs }),
    ...(options.headersTimeoutMs === undefined ? {} : { headersTimeoutMs: options.headersTimeoutMs }),
    ...(options.writeTimeoutMs === undefined ? {} : { writeTimeoutMs: options.writeTimeoutMs }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: options.maxConnectionsPerAddress }),
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
