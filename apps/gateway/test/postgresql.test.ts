import { randomBytes } from "node:crypto";
import { type Database, createDatabase } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl && process.env.CI) throw new Error("TEST_DATABASE_URL must be set in CI (PostgreSQL gateway tests).");
if (!databaseUrl) console.warn("Skipping the PostgreSQL gateway tests: TEST_DATABASE_URL is not set.");

describe.skipIf(!databaseUrl)("startGateway on PostgreSQL", () => {
  const schema = `gateway_test_${randomBytes(6).toString("hex")}`;
  const directory = createTemporaryDirectory();
  const logger = createRecordingLogger();
  let gateway: RunningGateway<Database>;
  let apiKey: string;

  beforeAll(async () => {
    const url = new URL(databaseUrl!);
    url.searchParams.set("schema", schema);
    gateway = await startGateway({
      env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), DATABASE_URL: url.toString() },
      settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, snapshotPollMs: 250 },
      logger,
    });
    apiKey = /API key \(shown once, store it now\): (gak_\w+)/.exec(logger.lines.join("\n"))![1]!;
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    const cleanup = createDatabase({ url: databaseUrl! });
    await cleanup.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await cleanup.close();
    directory.remove();
  });

  it("bootstraps, answers with the demo provider, and refuses a key revoked by raw SQL", async () => {
    const response = await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decide") });
    expect(response.status).toBe(200);
    await gateway.database.prisma.$executeRawUnsafe("UPDATE api_keys SET revoked_at = now()");
    const revokedAt = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 3000) {
      status = (await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decide") })).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });
});
