// The floor of the gateway benchmark: a bare `node:http` server + an undici Pool forwarding
// `POST /v1/chat/completions` to the mock provider. It does the least any JSON proxy must do
// (read the body, parse it, rewrite the model, forward it, relay the answer as it arrives,
// streams chunk by chunk) and nothing else: no auth, no policy, no usage, no logs, no metrics.
// Measured in the same run as the gateway, so the gateway's tail and first byte are read against
// what a Node proxy hop costs on this machine at that moment. Prints `{"url": ...}` once listening.
import { createServer } from "node:http";
import { createRequire } from "node:module";

// undici is a dependency of the gateway app (the same copy it uses for upstream calls).
const { Pool } = createRequire(new URL("../../apps/gateway/package.json", import.meta.url))("undici");

const upstream = new URL(process.env.UPSTREAM_URL);
const upstreamPath = `${upstream.pathname.replace(/\/$/, "")}/chat/completions`;
const pool = new Pool(upstream.origin, { connections: 128, keepAliveTimeout: 30_000 });

const server = createServer((request, response) => {
  if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
    response.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
    return;
  }
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const answer = await pool.request({
        path: upstreamPath,
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer mock-credential" },
        body: JSON.stringify({ ...body, model: "bench/model" }),
      });
      response.writeHead(answer.statusCode, { "content-type": answer.headers["content-type"] ?? "application/json" });
      // Each upstream chunk is written as it arrives (a stream's first event is not held back).
      for await (const chunk of answer.body) response.write(chunk);
      response.end();
    } catch (error) {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: String(error) } }));
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void pool.close();
  process.exit(0);
});
