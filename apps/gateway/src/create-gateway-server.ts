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
  });
}
