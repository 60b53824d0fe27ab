import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { type AddressInfo, type Socket, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayServerOptions, closeGatewayServer, createGatewayServer } from "../src/create-gateway-server.js";
import { writeJson } from "../src/write-pipeline-response.js";

// What a client can hold on the gateway's server: connections (in all, per address, silent ones),
// a connection whose request was refused before its body arrived, and a reader that stops reading.
// Floods are bounded (a few hundred sockets) and on loopback only; 127.0.0.2 is another client.

const servers: Server[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => closeGatewayServer(server, 100)));
});

function listen(handler: (request: IncomingMessage, response: ServerResponse) => void, options: Partial<GatewayServerOptions> = {}): Promise<number> {
  const server = createGatewayServer(handler, { requestTimeoutMs: 30_000, ...options }).listen(0, "127.0.0.1");
  servers.push(server);
  return new Promise((resolve) => server.once("listening", () => resolve((server.address() as AddressInfo).port)));
}

/** A socket from `localAddress` that sends nothing; resolves once connected, with a promise of its close. */
function openSilent(port: number, localAddress = "127.0.0.2"): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress });
    sockets.push(socket);
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.on("error", () => undefined);
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

/** One request on a fresh connection from 127.0.0.1: the status line and body. */
function probe(port: number, path = "/healthz"): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      if (received.includes("\r\n\r\n") && received.endsWith("ok")) resolve(received);
    });
    socket.once("error", reject);
    socket.once("close", () => resolve(received));
    socket.write(`GET ${path} HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\n\r\n`);
  });
}

const okHandler = (_request: IncomingMessage, response: ServerResponse) => response.end("ok");

/** Resolves true when `promise` settles within `ms`, false otherwise (a loose bound, never a measurement). */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe("the gateway's connection limits", () => {
  it("keeps at most GATEWAY_MAX_CONNECTIONS open under a flood of silent sockets, closing the oldest first, and answers a health check", async () => {
    const port = await listen(okHandler, { maxConnections: 50 });
    const flood = [];
    for (let index = 0; index < 200; index++) flood.push(await openSilent(port));
    // The oldest 150 were closed to make room for the newest; the newest 50 are still open.
    expect(await within(Promise.all(flood.slice(0, 150).map((entry) => entry.closed)), 5_000)).toBe(true);
    const server = servers[0]!;
    const open = await new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
    expect(open).toBeLessThanOrEqual(50);
    expect(flood.slice(150).every((entry) => !entry.socket.destroyed)).toBe(true);
    // A client that sends a request is served even though the cap is reached.
    expect(await probe(port)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("refuses connections past GATEWAY_MAX_CONNECTIONS_PER_ADDRESS from one address, and serves other addresses", async () => {
    const port = await listen(okHandler, { maxConnectionsPerAddress: 10 });
    const flood = [];
    for (let index = 0; index < 30; index++) flood.push(await openSilent(port));
    expect(await within(Promise.all(flood.slice(10).map((entry) => entry.closed)), 5_000)).toBe(true);
    expect(flood.slice(0, 10).every((entry) => !entry.socket.destroyed)).toBe(true);
    expect(await probe(port)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("answers 408 and closes a connection that sends no headers within GATEWAY_HEADERS_TIMEOUT_MS", async () => {
    const port = await listen(okHandler, { headersTimeoutMs: 1_000 });
    const { socket, closed } = await openSilent(port);
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    // Node's own default is 60 s; the gateway's is 20 s, and 1 s here.
    expect(await within(closed, 10_000)).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes the connection of an answer given before the body arrived (a 401) when the body does not follow within 2 s, instead of reading a trickling body", async () => {
    const port = await listen((_request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end('{"error":"no key"}');
    });
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("error", () => undefined);
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.write("POST /v1/chat/completions HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n{");
    // The client keeps trickling its body; the server has answered and must not wait for the rest.
    const trickle = setInterval(() => socket.writable && socket.write(" "), 100);
    try {
      expect(await within(closed, 5_000)).toBe(true);
    } finally {
      clearInterval(trickle);
    }
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
  });

  it("lets a client still uploading a large body read the early answer (no reset before it is read)", async () => {
    const port = await listen((_request, response) => {
      response.writeHead(413, { "content-type": "application/json" });
      response.end('{"error":"too large"}');
    });
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    let reset = false;
    socket.on("error", () => (reset = true));
    let received = "";
    const answered = new Promise<void>((resolve) =>
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
        if (received.includes('{"error":"too large"}')) resolve();
      }),
    );
    const body = Buffer.alloc(8 * 1024 * 1024, 0x20);
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    const uploaded = new Promise<void>((resolve) => socket.write(body, () => resolve()));
    expect(await within(Promise.all([answered, uploaded]), 10_000)).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(reset).toBe(false);
  });

  it("disconnects a client that stops reading its answer after GATEWAY_WRITE_TIMEOUT_MS, freeing what was buffered for it", async () => {
    const size = 32 * 1024 * 1024;
    let serverClosed: Promise<void> = new Promise(() => undefined);
    const port = await listen(
      (_request, response) => {
        serverClosed = new Promise((resolve) => response.once("close", () => resolve()));
        // 32 MB: far more than the loopback socket buffers take.
        writeJson(response, { status: 200, headers: {}, body: null, bodyText: `"${"x".repeat(size)}"` });
      },
      { writeTimeoutMs: 500 },
    );
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    socket.on("error", () => undefined);
    let received = 0;
    socket.on("data", (chunk) => (received += chunk.length));
    const clientClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write("GET /big HTTP/1.1\r\nhost: gateway\r\n\r\n");
    // Read the first bytes, then stop reading.
    await new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.pause();
    expect(await within(serverClosed, 10_000)).toBe(true);
    // Reading again: what the kernel had buffered arrives, then the end; never the whole answer.
    socket.resume();
    expect(await within(clientClosed, 10_000)).toBe(true);
    expect(received).toBeLessThan(size);
  });

  it("lets a slow reader that keeps reading receive the whole answer", async () => {
    const size = 8 * 1024 * 1024;
    const port = await listen((_request, response) => writeJson(response, { status: 200, headers: {}, body: null, bodyText: `"${"y".repeat(size)}"` }), { writeTimeoutMs: 500 });
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    let received = 0;
    const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("data", (chunk) => {
      received += chunk.length;
      // Reads a chunk, then pauses briefly: slower than the server writes, never stalled for the timeout.
      socket.pause();
      setTimeout(() => socket.resume(), 2);
    });
    socket.write("GET /big HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\n\r\n");
    await ended;
    expect(received).toBeGreaterThan(size);
  });
});
