import { readFileSync } from "node:fs";
import { type IncomingMessage, type RequestListener, STATUS_CODES, type Server, type ServerResponse, createServer } from "node:http";
import type { Duplex } from "node:stream";
import { fromHttpParserError } from "./from-http-parser-error.js";
import { GatewayError } from "./gateway-error.js";
import { defaultMaxConnections, defaultMaxConnectionsPerAddress, defaultWriteTimeoutMs, guardConnections, markRequestStarted } from "./guard-connections.js";

/** Default of {@link GuardedHttpServerOptions.headersTimeoutMs}. */
export const defaultHeadersTimeoutMs = 20_000;

/** Options of {@link createGuardedHttpServer}: the surface's error body, request ids and limits. */
export interface GuardedHttpServerOptions {
  /**
   * The longest a request may take to arrive (headers and body); then 408 `request_timeout`.
   * Headers alone get at most 60 s of it.
   */
  requestTimeoutMs: number;
  /** A new request id (the answer's `x-request-id`). */
  generateRequestId: () => string;
  /** The surface's error body for `error` (the gateway body, the dashboard body, ...). */
  renderErrorBody: (error: GatewayError, requestId: string) => unknown;
  /** Headers every such answer carries besides the content type, length, id and `connection: close`. */
  extraHeaders?: Readonly<Record<string, string>>;
  /**
   * How long an idle client connection stays open (default 65 s). Node's own 5 s is below the
   * idle timeout of load balancers in front (AWS ALB: 60 s): a connection the server closes just
   * as a balancer reuses it is a 502 there.
   */
  keepAliveTimeoutMs?: number;
  /**
   * How long a new connection (or a keep-alive connection's next request) may take to send its
   * request headers (default 20 s, at most `requestTimeoutMs`); then 408 and closed. Real
   * clients send headers at once: what waits is a socket held open for nothing.
   */
  headersTimeoutMs?: number;
  /**
   * Most open client connections (default 10,000, at most half the process's open-file limit).
   * Past it the oldest connections that sent nothing yet, then the oldest idle keep-alive ones,
   * are closed to make room; a new connection is refused only when all have requests in flight.
   */
  maxConnections?: number;
  /** Most open connections from one client address (default 1,000); more are refused at once. */
  maxConnectionsPerAddress?: number;
  /** A client that takes none of its waiting answer bytes for this long is disconnected (default 30 s; 0: never). */
  writeTimeoutMs?: number;
}

/**
 * An HTTP server around a request listener whose requests that never reach the listener are
 * still answered in the surface's error body with an `x-request-id` and `connection: close`:
 * - Node's parser refusals (`clientError`: bad chunking, bare LF, a malformed header: 400; a
 *   header section over Node's limit: 431; chunk extensions over it: 413), then the socket is destroyed;
 * - a request not received within `requestTimeoutMs` (headers within min(60 s, that)): 408,
 *   checked about once a second (Node's own timeout was 300 s, with an empty 408);
 * - an HTTP/1.1 request without `Host`: 400; a `CONNECT`: 404 `not_found`.
 * Idle connections are kept `keepAliveTimeoutMs` (65 s), longer than load balancers keep theirs.
 * An `Expect` other than `100-continue` is ignored (Node answered an empty 417).
 * The timeouts cover receiving the request only: an answer (a stream) may last longer. A request
 * answered before its body arrived (a 401, a 413, a deadline) gets no second answer, and its
 * connection is closed unless the rest of the body arrives within 2 s.
 * Connections are bounded ({@link guardConnections}): in all and per client address (silent
 * and idle connections make room first), and a client that stops reading its answer is
 * disconnected after `writeTimeoutMs`.
 */
export function createGuardedHttpServer(listener: RequestListener, options: GuardedHttpServerOptions): Server {
  const { requestTimeoutMs } = options;
  const answers = rawErrorWriter(options);
  // Connections whose current request was answered before its body fully arrived (a 401, a
  // deadline): a later parser error or timeout on them must not write a second answer.
  const answeredEarly = new WeakSet<Duplex>();
  const serveRequest = (request: IncomingMessage, response: ServerResponse) => {
    if (lacksHost(request)) {
      answers.withoutHost(response);
      return;
    }
    // A new request on the connection: the previous one has fully arrived.
    answeredEarly.delete(request.socket);
    markRequestStarted(request, response);
    if (mayHaveBody(request)) {
      response.once("finish", () => {
        if (request.complete) return;
        answeredEarly.add(request.socket);
        closeUnlessBodyFollows(request);
      });
    }
    listener(request, response);
  };
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(options.headersTimeoutMs ?? defaultHeadersTimeoutMs, requestTimeoutMs),
      // Node checks the timeouts every 30 s by default: a 408 could come up to 30 s late.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
      // Answered below in the surface's error body (Node's own answer has no body and no id).
      requireHostHeader: false,
    },
    serveRequest,
  );
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 65_000;
  guardConnections(server, {
    maxConnections: options.maxConnections ?? defaultConnectionCap(),
    maxConnectionsPerAddress: options.maxConnectionsPerAddress ?? defaultMaxConnectionsPerAddress,
    writeTimeoutMs: options.writeTimeoutMs ?? defaultWriteTimeoutMs,
  });
  // An `Expect` other than 100-continue: served as if absent (RFC 9110 lets a server ignore it), not Node's empty 417.
  server.on("checkExpectation", serveRequest);
  // CONNECT (no tunnels here): answered like any unknown route, not a silently closed socket.
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    answers.toSocket(socket, new GatewayError("not_found", { message: "CONNECT is not served here." }));
  });
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) => {
    if (answeredEarly.has(socket)) socket.destroy();
    else answers.clientError(error, socket);
  });
  return server;
}

/**
 * How long a connection answered before its request's body fully arrived (a 401, a 413, a
 * deadline) waits for the rest of that body (read and discarded, so the connection can serve
 * the next request) before it is closed. A real client's body follows at once; a slow client
 * trickling it held the connection until the request timeout (600 s by default).
 */
const earlyAnswerBodyWaitMs = 2_000;

/**
 * After an answer given before the body arrived: the rest of the body is discarded as it comes
 * (Node reads it to keep the connection), and the connection is closed if it has not all
 * arrived within `earlyAnswerBodyWaitMs`. Closing at once instead would reset a connection with
 * unread bytes (RST): a client still uploading could lose the answer. Only on this early path.
 */
function closeUnlessBodyFollows(request: IncomingMessage): void {
  const socket = request.socket;
  const timer = setTimeout(() => {
    if (!request.complete) socket.destroy();
  }, earlyAnswerBodyWaitMs);
  timer.unref();
  request.once("end", () => clearTimeout(timer));
  socket.once("close", () => clearTimeout(timer));
  // A body reader that stopped at a limit left the request paused: let the rest flow to nowhere.
  request.resume();
}

/**
 * {@link defaultMaxConnections}, or half the process's open-file limit when that is lower (the
 * other half for upstream sockets, files and the database). Linux reports the limit in
 * `/proc/self/limits`; elsewhere the default stands.
 */
export function defaultConnectionCap(): number {
  try {
    const limits = readFileSync("/proc/self/limits", "utf8");
    const soft = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1]);
    if (Number.isSafeInteger(soft) && soft > 0) return Math.max(1, Math.min(defaultMaxConnections, Math.floor(soft / 2)));
  } catch {
    // not Linux
  }
  return defaultMaxConnections;
}

function lacksHost(request: IncomingMessage): boolean {
  return request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined;
}

function mayHaveBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function rawErrorWriter(options: GuardedHttpServerOptions) {
  const extraHeaders = Object.entries(options.extraHeaders ?? {});
  const render = (error: GatewayError, requestId: string) => JSON.stringify(options.renderErrorBody(error, requestId));

  /** Writes an error answer straight to the socket (no response object exists), then destroys the socket. */
  const toSocket = (socket: Duplex, error: GatewayError, givenRequestId?: string): void => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = givenRequestId ?? options.generateRequestId();
    const payload = render(error, requestId);
    socket.write(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? "Error"}\r\n` +
        "content-type: application/json; charset=utf-8\r\n" +
        `content-length: ${Buffer.byteLength(payload)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        extraHeaders.map(([name, value]) => `${name}: ${value}\r\n`).join("") +
        "connection: close\r\n\r\n" +
        payload,
    );
    socket.destroy();
  };

  return {
    toSocket,
    /**
     * Answers a request Node's HTTP parser refused (or timed out), when nothing was answered on
     * the connection yet, then destroys the socket. Keeps the request id a listener already gave
     * the request (Node's own default handler reads `_httpMessage` the same way).
     */
    clientError(thrown: Error & { code?: string }, socket: Duplex): void {
      const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
      if (thrown.code === "ECONNRESET" || !socket.writable || pending?.headersSent === true) {
        socket.destroy();
        return;
      }
      const given = pending?.getHeader("x-request-id");
      toSocket(socket, fromHttpParserError(thrown), typeof given === "string" ? given : undefined);
    },
    withoutHost(response: ServerResponse): void {
      const requestId = options.generateRequestId();
      const error = new GatewayError("invalid_request", { message: "An HTTP/1.1 request needs a Host header.", param: "host" });
      const payload = render(error, requestId);
      response.writeHead(error.status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(payload),
        "x-request-id": requestId,
        ...Object.fromEntries(extraHeaders),
        connection: "close",
      });
      response.end(payload);
    },
  };
}
