import { randomBytes } from "node:crypto";
import { type IncomingMessage, type RequestListener, STATUS_CODES, type Server, type ServerResponse, createServer } from "node:http";
import type { Duplex } from "node:stream";
import { GatewayError, fromHttpParserError, renderDashboardErrorBody } from "@gateway/errors";

/** How long a request may take to arrive (headers and body) before the dashboard answers 408. */
export const dashboardRequestTimeoutMs = 60_000;

/** A dashboard request id (`req_` and 24 hex digits), as every answer's `x-request-id`. */
export function generateDashboardRequestId(): string {
  return `req_${randomBytes(12).toString("hex")}`;
}

/**
 * The dashboard's HTTP server around its Express app. Requests that never reach the app are
 * still answered in the dashboard error body with an `x-request-id` and `connection: close`:
 * - Node's parser refusals (`clientError`: bad chunking, bare LF, a malformed header: 400; a
 *   header section over Node's limit: 431; chunk extensions over it: 413), then the socket is destroyed;
 * - a request not received within `requestTimeoutMs` (default 60 s, checked about once a
 *   second): 408 `request_timeout` (Node's own was 300 s, with an empty 408);
 * - an HTTP/1.1 request without `Host`: 400; a `CONNECT`: 404 `not_found`.
 * An `Expect` other than `100-continue` is ignored (Node answered an empty 417).
 * The timeout covers receiving the request only: an answer (a playground stream) may last longer.
 */
export function createDashboardServer(listener: RequestListener, options: { requestTimeoutMs?: number } = {}): Server {
  const requestTimeoutMs = options.requestTimeoutMs ?? dashboardRequestTimeoutMs;
  // Connections whose current request was answered before its body fully arrived: a later
  // parser error or timeout on them must not write a second answer.
  const answeredEarly = new WeakSet<Duplex>();
  const serveRequest = (request: IncomingMessage, response: ServerResponse) => {
    if (lacksHost(request)) {
      answerWithoutHost(response);
      return;
    }
    // A new request on the connection: the previous one has fully arrived.
    answeredEarly.delete(request.socket);
    if (mayHaveBody(request)) {
      response.once("finish", () => {
        if (!request.complete) answeredEarly.add(request.socket);
      });
    }
    listener(request, response);
  };
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
      requireHostHeader: false,
    },
    serveRequest,
  );
  // An `Expect` other than 100-continue: served as if absent (RFC 9110 lets a server ignore it), not Node's empty 417.
  server.on("checkExpectation", serveRequest);
  // CONNECT (no tunnels here): answered like any unknown route, not a silently closed socket.
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    writeRawError(socket, new GatewayError("not_found", { message: "CONNECT is not served here." }));
  });
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) => {
    if (answeredEarly.has(socket)) socket.destroy();
    else answerClientError(error, socket);
  });
  return server;
}

function lacksHost(request: IncomingMessage): boolean {
  return request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined;
}

function mayHaveBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function answerWithoutHost(response: ServerResponse): void {
  const error = new GatewayError("invalid_request", { message: "An HTTP/1.1 request needs a Host header.", param: "host" });
  const payload = JSON.stringify(renderDashboardErrorBody(error));
  response.writeHead(error.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(payload),
    "x-request-id": generateDashboardRequestId(),
    "x-content-type-options": "nosniff",
    connection: "close",
  });
  response.end(payload);
}

/** Answers a request Node's HTTP parser refused (or timed out), then destroys the socket. */
function answerClientError(thrown: Error & { code?: string }, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
  if (thrown.code === "ECONNRESET" || !socket.writable || pending?.headersSent === true) {
    socket.destroy();
    return;
  }
  const given = pending?.getHeader("x-request-id");
  writeRawError(socket, fromHttpParserError(thrown), typeof given === "string" ? given : undefined);
}

/** Writes an error answer straight to the socket (no response object exists), then destroys the socket. */
function writeRawError(socket: Duplex, error: GatewayError, givenRequestId?: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = givenRequestId ?? generateDashboardRequestId();
  const payload = JSON.stringify(renderDashboardErrorBody(error));
  socket.write(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}\r\n` +
      "content-type: application/json; charset=utf-8\r\n" +
      `content-length: ${Buffer.byteLength(payload)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      "x-content-type-options: nosniff\r\n" +
      "connection: close\r\n\r\n" +
      payload,
  );
  socket.destroy();
}
