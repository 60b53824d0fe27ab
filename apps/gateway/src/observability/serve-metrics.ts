import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { GatewayMetrics } from "./create-gateway-metrics.js";
import { writeMetrics } from "./create-operations-hook.js";

/**
 * Serves `GET /metrics` (Prometheus text format) on its own port, apart from the API; every other
 * path is 404. Resolves with the server and its URL.
 */
export async function serveMetrics(metrics: GatewayMetrics, options: { port: number; host: string }): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!.replace(/\/+$/, "");
    if ((request.method === "GET" || request.method === "HEAD") && path === "/metrics") {
      writeMetrics(response, metrics);
      return;
    }
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: the metrics listener serves GET /metrics only.\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { server, url: `http://${host}:${address.port}/metrics` };
}
