// The reference point of the gateway benchmark: bare Express 5 + `express.json()` + an undici
// Pool forwarding `POST /v1/chat/completions` to the mock provider (no auth, no policy, no
// usage). Measured on the same machine in the same run, so the gateway's figures can be read
// against it even when the machine is shared. Prints `{"url": ...}` once listening.
import { createRequire } from "node:module";

// Express is a dependency of the dashboard API (the gateway serves on node:http).
const require = createRequire(new URL("../../apps/dashboard-api/package.json", import.meta.url));
const express = require("express");
const { Pool } = require("undici");

const upstream = new URL(process.env.UPSTREAM_URL);
const pool = new Pool(upstream.origin, { connections: 128, keepAliveTimeout: 30_000 });
const app = express();
app.disable("x-powered-by");
app.disable("etag");
app.use(express.json({ limit: "10mb" }));
app.post("/v1/chat/completions", async (request, response) => {
  try {
    const answer = await pool.request({
      path: `${upstream.pathname.replace(/\/$/, "")}/chat/completions`,
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer mock-credential" },
      body: JSON.stringify({ ...request.body, model: "bench/model" }),
    });
    const text = await answer.body.text();
    response.status(answer.statusCode).type("application/json").send(text);
  } catch (error) {
    response.status(502).json({ error: { message: String(error) } });
  }
});
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void pool.close();
  process.exit(0);
});
