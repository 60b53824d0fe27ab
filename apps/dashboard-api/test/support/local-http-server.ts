import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the local server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A local HTTP server on 127.0.0.1:0 that records requests and answers with `handle`. */
export async function startLocalHttpServer(
  handle: (request: ReceivedRequest, response: ServerResponse) => void = (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  },
): Promise<{ url: string; received: ReceivedRequest[]; server: Server; close(): Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      handle(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port on which nothing listens (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const probe = await startLocalHttpServer();
  await probe.close();
  return probe.url;
}
