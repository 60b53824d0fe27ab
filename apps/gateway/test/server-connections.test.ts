import { type IncomingMessage, type ServerResponse, request as httpRequest, Agent } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { describe, expect, it } from "vitest";
import { closeGatewayServer, createGatewayServer } from "../src/create-gateway-server.js";

function listen(handler: (request: IncomingMessage, response: ServerResponse) => void, keepAliveTimeoutMs?: number) {
  const server = createGatewayServer(handler, { requestTimeoutMs: 30_000, ...(keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeoutMs }) }).listen(0, "127.0.0.1");
  return new Promise<{ server: typeof server; port: number }>((resolve) => server.once("listening", () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

/** One GET over `agent`; resolves with the answer's headers, body and whether the socket was reused. */
function get(port: number, agent: Agent): Promise<{ headers: IncomingMessage["headers"]; body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, path: "/", agent }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ headers: response.headers, body, reused: request.reusedSocket }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("the gateway's client connections", () => {
  it("keeps an idle connection open for 65 s by default, above load balancers' idle timeouts (Node's own is 5 s)", async () => {
    const { server, port } = await listen((_request, response) => response.end("ok"));
    const agent = new Agent({ keepAlive: true });
    try {
      const answer = await get(port, agent);
      expect(answer.headers["keep-alive"]).toBe("timeout=65");
    } finally {
      agent.destroy();
      await closeGatewayServer(server, 1_000);
    }
  });

  it("closes an idle connection after GATEWAY_KEEP_ALIVE_TIMEOUT_MS, not before", async () => {
    const { server, port } = await listen((_request, response) => response.end("ok"), 1_000);
    const socket = connect({ host: "127.0.0.1", port });
    try {
      let received = "";
      const answered = new Promise<number>((resolve) => {
        socket.on("data", (chunk) => {
          received += chunk.toString("latin1");
          if (received.endsWith("ok")) resolve(Date.now());
        });
      });
      const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
      socket.write("GET / HTTP/1.1\r\nhost: gateway\r\n\r\n");
      const idleMs = (await closed) - (await answered);
      expect(received).toMatch(/keep-alive: timeout=1\r\n/i);
      expect(idleMs).toBeGreaterThanOrEqual(900);
      expect(idleMs).toBeLessThan(5_000);
    } finally {
      socket.destroy();
      await closeGatewayServer(server, 1_000);
    }
  });

  it("drains on close: a request in flight is answered, then its kept-alive connection is closed at once", async () => {
    const { server, port } = await listen((_request, response) => {
      setTimeout(() => response.end("late answer"), 300);
    });
    const agent = new Agent({ keepAlive: true });
    try {
      const inFlight = get(port, agent);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      // Forced only after 30 s: what closes the connection here is the drain, not the force.
      await closeGatewayServer(server, 30_000);
      const drainedMs = Date.now() - started;
      expect((await inFlight).body).toBe("late answer");
      expect(drainedMs).toBeLessThan(5_000);
    } finally {
      agent.destroy();
    }
  });
});
