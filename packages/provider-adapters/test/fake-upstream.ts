import { createServer } from "node:http";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { CallAbort, callAbortFollowing } from "../src/index.js";
import type { ProviderCallContext, ProviderTarget, AdapterConnection } from "../src/index.js";

/** A request as the fake upstream received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any;
  /** Resolves when the socket this request came on closes. */
  socketClosed: Promise<void>;
}

/** A real HTTP server on port 0 whose answers the test writes. */
export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  /** Sockets accepted so far. */
  connectionCount(): number;
  /** Resolves when the next (or an already pending) socket closes. */
  nextSocketClose(): Promise<void>;
  close(): Promise<void>;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** Starts a fake upstream on 127.0.0.1, port 0. */
export async function startFakeUpstream(handler: FakeHandler): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  let closeWaiters: (() => void)[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    let body: unknown;
    try {
      body = rawBody === "" ? undefined : JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const socket = incoming.socket;
    const socketClosed = socket.destroyed
      ? Promise.resolve()
      : new Promise<void>((resolve) => socket.once("close", () => resolve()));
    const recorded: RecordedRequest = {
      socketClosed,
      method: incoming.method ?? "",
      path: incoming.url ?? "",
      headers: incoming.headers,
      rawBody,
      body,
    };
    requests.push(recorded);
    try {
      await handler(recorded, response);
    } catch (error) {
      if (!response.headersSent) response.writeHead(599);
      response.end(String(error));
    }
  });
  server.on("connection", (socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      const waiters = closeWaiters;
      closeWaiters = [];
      for (const waiter of waiters) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connectionCount: () => accepted,
    nextSocketClose: () => new Promise<void>((resolve) => closeWaiters.push(resolve)),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes a JSON answer. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** A call context with a generous deadline (or the given one). */
export function callContext(options: { timeoutMs?: number; signal?: AbortSignal } = {}): ProviderCallContext {
  return {
    requestId: "req_test",
    abort: options.signal === undefined ? new CallAbort() : callAbortFollowing(options.signal),
    deadline: Date.now() + (options.timeoutMs ?? 20_000),
  };
}

/** A connection of the given kind pointing at a fake upstream. */
export function connectionFor(kind: AdapterConnection["kind"], baseUrl: string, extra: Partial<AdapterConnection> = {}): AdapterConnection {
  return {
    id: `conn_${kind}`,
    name: `${kind}-test`,
    kind,
    baseUrl,
    credential: "sk-test-secret-credential-123456",
    headers: { "X-Extra-Header": "extra-value" },
    ...extra,
  };
}

/** A target for a connection. */
export function targetFor(connection: AdapterConnection, upstreamModel = "vendor/model-1"): ProviderTarget {
  return { connection, upstreamModel, qualifiedModel: `${connection.name}/${upstreamModel}` };
}

/** Reads all events of an async iterable. */
export async function collect<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const result: Item[] = [];
  for await (const item of items) result.push(item);
  return result;
}

/** Captures the rejection of a promise (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected the promise to reject.");
}
