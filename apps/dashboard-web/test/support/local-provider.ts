import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A local OpenAI-compatible provider: answers the model listing and records each request's path and authorization. */
export async function startLocalProvider(): Promise<{ url: string; requests: { path: string; authorization: string }[]; close(): Promise<void> }> {
  const requests: { path: string; authorization: string }[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    requests.push({ path: request.url ?? "", authorization: String(request.headers.authorization ?? "") });
    request.resume();
    request.on("end", () => {
      const body = JSON.stringify({ object: "list", data: [{ id: "gpt-test", object: "model", owned_by: "vendor" }] });
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
