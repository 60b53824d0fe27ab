import { randomBytes } from "node:crypto";
import { type Database, createDatabase } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGatewaySettings } from "../src/gateway-settings.js";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl && process.env.CI) throw new Error("TEST_DATABASE_URL must be set in CI (PostgreSQL LISTEN gateway test).");
if (!databaseUrl) console.warn("Skipping the PostgreSQL LISTEN gateway test: TEST_DATABASE_URL is not set.");

describe("GATEWAY_POSTGRES_LISTEN", () => {
  it("is on by default, can be turned off, and rejects other values", () => {
    expect(readGatewaySettings({}).postgresListen).toBe(true);
    expect(readGatewaySettings({ GATEWAY_POSTGRES_LISTEN: "off" }).postgresListen).toBe(false);
    expect(() => readGatewaySettings({ GATEWAY_POSTGRES_LISTEN: "maybe" })).toThrow(/GATEWAY_POSTGRES_LISTEN/);
  });
});

describe.skipIf(!databaseUrl)("startGateway on PostgreSQL: LISTEN pushes control-plane changes", () => {
  const schema = `gateway_test_${randomBytes(6).toString("hex")}`;
  const directory = createTemporaryDirectory();
  const logger = createRecordingLogger();
  let gateway: RunningGateway;
  let apiKey: string;
  let otherProcess: Database;

  beforeAll(async () => {
    const url = new URL(databaseUrl!);
    url.searchParams.set("schema", schema);
    gateway = await startGateway({
      env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), DATABASE_URL: url.toString() },
      // Polling every 10 s: only the push can make a revocation visible within a second.
      settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, snapshotPollMs: 10_000 },
      logger,
    });
    apiKey = /API key \(shown once, store it now\): (gak_\w+)/.exec(logger.lines.join("\n"))![1]!;
    // "Another process": a database handle with its own connection pool.
    otherProcess = createDatabase({ url: url.toString(), postgresqlPoolSize: 1 });
  }, 60_000);

  afterAll(async () => {
    await otherProcess?.close();
    await gateway?.close();
    const cleanup = createDatabase({ url: databaseUrl! });
    await cleanup.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await cleanup.close();
    directory.remove();
  });

  it("refuses a key revoked by raw SQL from another connection within one second, with a 10 s poll interval", async () => {
    const before = await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decide") });
    expect(before.status).toBe(200);
    await otherProcess.prisma.$executeRawUnsafe("UPDATE api_keys SET revoked_at = now()");
    const revokedAt = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 3000) {
      status = (await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decide") })).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });
});
