import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createConsoleLogger } from "../src/dashboard-logger.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function start(dependencies: Parameters<typeof startTestDashboard>[0] = {}) {
  const lines: string[] = [];
  const logger = createConsoleLogger({ format: "json", destination: { write: (line: string) => void lines.push(line) } });
  const harness: TestDashboard = await startTestDashboard({ ...dependencies, dependencies: { logger, ...dependencies.dependencies } });
  cleanups.push(() => harness.close().catch(() => undefined));
  return { harness, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("dashboard operations: request lines, /healthz, /readyz", () => {
  it("writes one JSON line per request with its id and route pattern, never the password", async () => {
    const { harness, entries, lines } = await start();
    const login = await harness.request("POST", "/v1/auth/login", { body: { email: "nobody@example.com", password: "a-password-never-logged" } });
    expect(login.status).toBe(401);
    const requestId = login.headers.get("x-request-id");
    await expect.poll(() => entries().some((entry) => entry.request_id === requestId), { timeout: 3000 }).toBe(true);
    expect(entries().find((entry) => entry.request_id === requestId)).toMatchObject({
      level: "info",
      service: "dashboard-api",
      msg: "request",
      method: "POST",
      route: "/v1/auth/login",
      status: 401,
      duration_ms: expect.any(Number),
    });
    expect(lines.join("\n")).not.toContain("a-password-never-logged");
  });

  it("is ready while the database answers and answers 503 naming it once it does not; /healthz stays 200", async () => {
    const { harness } = await start();
    const ready = await harness.request("GET", "/readyz");
    expect([ready.status, ready.body]).toEqual([200, { status: "ready", checks: { database: "ok" } }]);
    // The database stops answering (the embedded SQLite file cannot go away, so its queries are made to fail as a lost server's would).
    const prisma = harness.database.prisma as unknown as { $queryRawUnsafe: (...args: unknown[]) => Promise<unknown> };
    const original = prisma.$queryRawUnsafe;
    prisma.$queryRawUnsafe = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
    cleanups.push(() => void (prisma.$queryRawUnsafe = original));
    const unready = await harness.request("GET", "/readyz");
    expect([unready.status, unready.body]).toEqual([503, { status: "unready", checks: { database: "failed" } }]);
    expect((await harness.request("GET", "/healthz")).status).toBe(200);
  });

  it("checks Redis when it is configured", async () => {
    const redis = new Redis("redis://127.0.0.1:9", { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on("error", () => undefined);
    cleanups.push(() => redis.disconnect());
    const { harness } = await start({ dependencies: { redis } });
    const unready = await harness.request("GET", "/readyz");
    expect([unready.status, unready.body]).toEqual([503, { status: "unready", checks: { database: "ok", redis: "failed" } }]);
  });
});
