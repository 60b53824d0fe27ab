import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Default of {@link ConnectionGuardOptions.maxConnections}. */
export const defaultMaxConnections = 10_000;

/** Default of {@link ConnectionGuardOptions.maxConnectionsPerAddress}. */
export const defaultMaxConnectionsPerAddress = 1_000;

/** Default of {@link ConnectionGuardOptions.writeTimeoutMs}. */
export const defaultWriteTimeoutMs = 30_000;

/** Options of {@link guardConnections}. */
export interface ConnectionGuardOptions {
  /**
   * Most open client connections (default 10,000, and at most half the process's open-file
   * limit, so upstream sockets and files always have descriptors left). Past it, the oldest
   * connection that sent nothing yet is closed to make room, else the oldest idle keep-alive
   * connection; only when every connection has a request in flight is the new one refused.
   */
  maxConnections: number;
  /** Most open connections from one client address (default 1,000); more from it are refused at once. */
  maxConnectionsPerAddress: number;
  /**
   * A connection with answer bytes waiting that makes no progress for this long (the client
   * stopped reading) is closed, and what was buffered for it is freed (default 30 s; 0: never).
   */
  writeTimeoutMs: number;
}

/** What the guard knows of one connection. One shape for all (declared once, not per connection). */
class ConnectionState {
  /** The client's address (IPv4-mapped IPv6 written as IPv4). */
  readonly address: string;
  readonly guard: ConnectionGuard;
  /** A request was received and its answer has not finished. */
  busy = false;
  /** Answer bytes the kernel has taken so far (as last seen by the sweep). */
  flushed = 0;
  /** When the sweep first saw answer bytes waiting without progress (0: not stalled). */
  stalledSince = 0;

  constructor(address: string, guard: ConnectionGuard) {
    this.address = address;
    this.guard = guard;
  }
}

/** The connections of one server. */
class ConnectionGuard {
  readonly options: ConnectionGuardOptions;
  /** Every open connection, oldest first. */
  readonly open = new Map<Socket, ConnectionState>();
  /** Connections that have sent no request yet, oldest first (the first to go: a flood of idle sockets is this). */
  readonly silent = new Set<Socket>();
  /** Keep-alive connections between requests, oldest first. */
  readonly idle = new Set<Socket>();
  readonly perAddress = new Map<string, number>();
  /** Connections closed to make room, refused, or closed for not reading (for tests and logs). */
  readonly counts = { shed: 0, refused: 0, writeTimeouts: 0 };

  constructor(options: ConnectionGuardOptions) {
    this.options = options;
  }
}

const stateOfSocket = new WeakMap<Socket, ConnectionState>();

/** What {@link guardConnections} reports of a guarded server. */
export interface ConnectionGuardStatus {
  /** Open client connections. */
  readonly open: number;
  /** Connections closed to make room for new ones, refused over a cap, and closed for not reading. */
  readonly shed: number;
  readonly refused: number;
  readonly writeTimeouts: number;
}

/**
 * Bounds what clients can hold on an HTTP server: its open connections (in all and per client
 * address; over the cap the oldest connections that sent nothing, then the oldest idle
 * keep-alive ones, make room, so a flood of silent sockets cannot lock out health checks and
 * real clients), and the answer bytes buffered for a client that stopped reading (closed after
 * `writeTimeoutMs` without progress). Call {@link markRequestStarted} for each request the server
 * serves. Returns a live view of the counts.
 */
export function guardConnections(server: Server, options: ConnectionGuardOptions): ConnectionGuardStatus {
  const guard = new ConnectionGuard(options);
  server.on("connection", (socket: Socket) => admitConnection(guard, socket));
  if (options.writeTimeoutMs > 0) {
    const sweepEveryMs = Math.max(10, Math.min(1_000, Math.floor(options.writeTimeoutMs / 4)));
    let sweeper: NodeJS.Timeout | null = null;
    server.on("listening", () => {
      sweeper ??= setInterval(() => closeStalledWriters(guard), sweepEveryMs);
      sweeper.unref();
    });
    server.on("close", () => {
      if (sweeper !== null) clearInterval(sweeper);
      sweeper = null;
    });
  }
  return {
    get open() {
      return guard.open.size;
    },
    get shed() {
      return guard.counts.shed;
    },
    get refused() {
      return guard.counts.refused;
    },
    get writeTimeouts() {
      return guard.counts.writeTimeouts;
    },
  };
}

/**
 * Marks the connection of `request` busy until `response` finished (then idle, first in line to
 * be shed after connections that never sent anything). Per request: two set deletions and one
 * listener.
 */
export function markRequestStarted(request: IncomingMessage, response: ServerResponse): void {
  const state = stateOfSocket.get(request.socket as Socket);
  if (state === undefined) return;
  state.busy = true;
  state.guard.silent.delete(request.socket as Socket);
  state.guard.idle.delete(request.socket as Socket);
  response.once("finish", onResponseFinish);
}

function onResponseFinish(this: ServerResponse): void {
  const socket = this.req.socket as Socket;
  const state = stateOfSocket.get(socket);
  if (state === undefined || socket.destroyed) return;
  state.busy = false;
  state.guard.idle.add(socket);
}

function onSocketClose(this: Socket): void {
  const state = stateOfSocket.get(this);
  if (state === undefined) return;
  const guard = state.guard;
  guard.open.delete(this);
  guard.silent.delete(this);
  guard.idle.delete(this);
  const left = (guard.perAddress.get(state.address) ?? 1) - 1;
  if (left <= 0) guard.perAddress.delete(state.address);
  else guard.perAddress.set(state.address, left);
}

function admitConnection(guard: ConnectionGuard, socket: Socket): void {
  const raw = socket.remoteAddress ?? "";
  const address = raw.startsWith("::ffff:") ? raw.slice(7) : raw;
  const fromAddress = guard.perAddress.get(address) ?? 0;
  if (fromAddress >= guard.options.maxConnectionsPerAddress) {
    guard.counts.refused += 1;
    socket.destroy();
    return;
  }
  if (guard.open.size >= guard.options.maxConnections) {
    const victim = oldest(guard.silent) ?? oldest(guard.idle);
    if (victim === undefined) {
      guard.counts.refused += 1;
      socket.destroy();
      return;
    }
    guard.counts.shed += 1;
    // Frees its slot at once (its 'close' event comes later).
    onSocketClose.call(victim);
    stateOfSocket.delete(victim);
    victim.destroy();
  }
  const state = new ConnectionState(address, guard);
  stateOfSocket.set(socket, state);
  guard.open.set(socket, state);
  guard.silent.add(socket);
  guard.perAddress.set(address, fromAddress + 1);
  socket.once("close", onSocketClose);
}

function oldest(sockets: Set<Socket>): Socket | undefined {
  for (const socket of sockets) return socket;
  return undefined;
}

/**
 * Closes connections whose client has not taken any of the answer bytes waiting for it for
 * `writeTimeoutMs`: a stream's writer waits for `drain`, which then never comes, so the
 * upstream read stays paused and the buffered bytes would stay until the client left.
 */
function closeStalledWriters(guard: ConnectionGuard): void {
  const now = Date.now();
  for (const [socket, state] of guard.open) {
    const waiting = socket.writableLength;
    if (waiting === 0) {
      state.stalledSince = 0;
      continue;
    }
    // Bytes handed to the socket minus those still waiting: what the client's kernel took.
    const flushed = (socket.bytesWritten ?? 0) - waiting;
    if (flushed !== state.flushed || state.stalledSince === 0) {
      state.flushed = flushed;
      state.stalledSince = now;
      continue;
    }
    if (now - state.stalledSince >= guard.options.writeTimeoutMs) {
      guard.counts.writeTimeouts += 1;
      socket.destroy();
    }
  }
}
