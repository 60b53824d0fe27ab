import { randomBytes } from "node:crypto";
import { type Server, type Socket, createServer, connect } from "node:net";
import type { AddressInfo } from "node:net";
import { createDatabase, generateApiKey } from "@gateway/db";
import { afterEach, describe, expect, it } from "vitest";
import { createGatewayLogger } from "../src/logging/create-gateway-logger.js";
import { startGateway } from "../src/start-gateway.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { createTemporaryDirectory } from "./support/temporary-directory.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A JSON logger whose lines are kept in memory, as the log pipeline would read them. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = createGatewayLogger({ format: "json", destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const apiKey = generateApiKey().secret;
const adminPassword = "correct horse battery staple";

async function startOnSqlite(settings: Record<string, unknown> = {}) {
  const directory = createTemporaryDirectory();
  cleanups.push(() => directory.remove());
  const captured = capturedLogger();
  const gateway = await startGateway({
    env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), GATEWAY_API_KEY: apiKey, GATEWAY_ADMIN_PASSWORD: adminPassword },
    settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, metricsPort: 0, usageFlushMs: 20, ...settings },
    logger: captured.logger,
  });
  cleanups.push(() => gateway.close());
  return { gateway, ...captured };
}

describe("the served gateway's operations endpoints and logs", () => {
  it("writes one JSON line per request with its id, route, status and organization, and no secret anywhere", async () => {
    const { gateway, entries, lines } = await startOnSqlite();
    const answered = await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decide") });
    expect(answered.status).toBe(200);
    const refused = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: "Bearer gak_not_a_real_key_0123456789" } });
    expect(refused.status).toBe(401);
    const refusedId = refused.headers.get("x-request-id")!;

    await expect.poll(() => entries().filter((entry) => entry.msg === "request").length, { timeout: 3000 }).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const requests = entries().filter((entry) => entry.msg === "request");
    const decision = requests.find((entry) => entry.request_id === answered.requestId);
    expect(decision).toMatchObject({ level: "info", service: "gateway", method: "POST", route: "/v1/systemone", status: 200, project_id: expect.any(String), organization_id: expect.any(String) });
    expect(decision!.duration_ms).toEqual(expect.any(Number));
    expect(typeof decision!.time).toBe("string");
    expect(requests.find((entry) => entry.request_id === refusedId)).toMatchObject({ route: "/v1/models", status: 401 });
    const everything = lines.join("\n");
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toContain("gak_not_a_real_key_0123456789");
  });

  it("redacts secrets by pino's own redaction, whatever object is logged", () => {
    const { logger, entries } = capturedLogger();
    logger.info("calling out", { headers: { authorization: "Bearer gak_leak", "x-api-key": "gak_leak2" }, connection: { credential: "sk-leak" }, password: "hunter2" });
    const [entry] = entries();
    expect(JSON.stringify(entry)).not.toMatch(/gak_leak|sk-leak|hunter2/);
    expect(entry).toMatchObject({ headers: { authorization: "[redacted]", "x-api-key": "[redacted]" }, connection: { credential: "[redacted]" }, password: "[redacted]" });
  });

  it("writes request lines with their known fields only (they skip redaction, so nothing else may reach them)", () => {
    const { logger, entries } = capturedLogger();
    const fields = { request_id: "req_1", method: "POST", route: "/v1/chat/completions", status: 200, duration_ms: 3, organization_id: "org_1", authorization: "Bearer gak_leak" };
    logger.request(fields);
    const [entry] = entries();
    expect(JSON.stringify(entry)).not.toContain("gak_leak");
    expect(entry).toMatchObject({ level: "info", service: "gateway", msg: "request", request_id: "req_1", method: "POST", route: "/v1/chat/completions", status: 200, duration_ms: 3, organization_id: "org_1" });
    expect(Object.keys(entry!).sort()).toEqual(["duration_ms", "level", "method", "msg", "organization_id", "request_id", "route", "service", "status", "time"]);
  });

  it("serves /metrics on its own port (not on the API port without a token), /healthz, and /readyz with its checks", async () => {
    const { gateway } = await startOnSqlite();
    expect(gateway.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decide") })).status).toBe(200);
    const scraped = await fetch(gateway.metricsUrl!);
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toMatch(/^gateway_calls_total\{endpoint="decisions",connection="demo",model="demo\/demo\/decide",status_class="2xx"\} 1$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);

    const health = await fetch(`${gateway.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect(ready.headers.get("x-request-id")).toMatch(/^req_/);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready", checks: { database: "ok", snapshot: "ok" } }]);
  });

  it("keeps serving when the metrics port is taken, and says so", async () => {
    const blocker = createServer().listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => blocker.once("listening", () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const { gateway, entries } = await startOnSqlite({ metricsPort: (blocker.address() as AddressInfo).port });
    expect(gateway.metricsUrl).toBeNull();
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(entries().some((entry) => entry.level === "error" && String(entry.msg).includes("metrics listener could not start"))).toBe(true);
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl && process.env.CI) throw new Error("TEST_DATABASE_URL must be set in CI (PostgreSQL readiness test).");
if (!databaseUrl) console.warn("Skipping the PostgreSQL readiness test: TEST_DATABASE_URL is not set.");

/** A TCP relay to PostgreSQL that can be cut, as a database outage would. */
async function startRelay(target: URL): Promise<{ port: number; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

describe.skipIf(!databaseUrl)("readiness on PostgreSQL", () => {
  it("answers 503 naming the database when it becomes unreachable, while /healthz stays 200", async () => {
    const schema = `gateway_ready_${randomBytes(6).toString("hex")}`;
    const direct = new URL(databaseUrl!);
    const relay = await startRelay(direct);
    const viaRelay = new URL(databaseUrl!);
    viaRelay.hostname = "127.0.0.1";
    viaRelay.port = String(relay.port);
    viaRelay.searchParams.set("schema", schema);
    cleanups.push(async () => {
      const cleanup = createDatabase({ url: databaseUrl! });
      await cleanup.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await cleanup.close();
    });
    const directory = createTemporaryDirectory();
    cleanups.push(() => directory.remove());
    const { logger, entries } = capturedLogger();
    const gateway = await startGateway({
      env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), DATABASE_URL: viaRelay.toString() },
      settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, metricsPort: null, readinessTimeoutMs: 1000, postgresListen: false },
      logger,
    });
    cleanups.push(() => gateway.close().catch(() => undefined));
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);

    await relay.cut();
    const unready = await fetch(`${gateway.url}/readyz`);
    expect(unready.status).toBe(503);
    expect(await unready.json()).toEqual({ status: "unready", checks: { database: "failed", snapshot: "ok" } });
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(entries().some((entry) => entry.msg === "Readiness check 'database' failed.")).toBe(true);
  }, 60_000);
});
