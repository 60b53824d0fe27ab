import { randomBytes } from "node:crypto";
import { generateApiKey } from "@gateway/db";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function start(dataDirectory: string, env: Record<string, string> = {}) {
  const logger = createRecordingLogger();
  const gateway = await startGateway({
    env: { GATEWAY_SECRET_KEY: secretKey, ...env },
    settings: { port: 0, host: "127.0.0.1", dataDirectory, snapshotPollMs: 50, usageFlushMs: 20 },
    logger,
  });
  cleanups.push(() => gateway.close());
  return { gateway, logger };
}

const secretKey = randomBytes(32).toString("base64");

function printedApiKey(lines: string[]): string {
  const match = /API key \(shown once, store it now\): (gak_\w+)/.exec(lines.join("\n"));
  if (!match) throw new Error(`no API key printed in:\n${lines.join("\n")}`);
  return match[1]!;
}

describe("startGateway: first start", () => {
  it("bootstraps an empty database once, printing the generated key and admin password; the demo answers offline", async () => {
    const directory = createTemporaryDirectory();
    cleanups.push(() => directory.remove());
    const first = await start(directory.path);
    const output = first.logger.lines.join("\n");
    expect(output).toMatch(/Admin login: admin@gateway\.local \/ password: \S{16,}/);
    const apiKey = printedApiKey(first.logger.lines);

    const response = await postDecision(first.gateway.url, { apiKey, body: decisionBody("demo/demo/decide") });
    expect(response.status).toBe(200);
    expect(response.body.demo).toBe(true);
    const stored = await first.gateway.database.prisma.apiKey.findMany();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(apiKey);

    await first.gateway.close();
    const second = await start(directory.path);
    expect(second.logger.lines.join("\n")).not.toMatch(/First start|API key \(shown once/);
    expect(await second.gateway.database.prisma.organization.count()).toBe(1);
    expect((await postDecision(second.gateway.url, { apiKey, body: decisionBody("demo/demo/decide") })).status).toBe(200);
  });

  it("takes the admin account and API key from GATEWAY_ADMIN_EMAIL/PASSWORD and GATEWAY_API_KEY", async () => {
    const directory = createTemporaryDirectory();
    cleanups.push(() => directory.remove());
    const apiKey = generateApiKey().secret;
    const { gateway, logger } = await start(directory.path, {
      GATEWAY_ADMIN_EMAIL: "ops@example.com",
      GATEWAY_ADMIN_PASSWORD: "correct horse battery",
      GATEWAY_API_KEY: apiKey,
    });
    const output = logger.lines.join("\n");
    expect(output).not.toContain("correct horse battery");
    expect(output).not.toContain(apiKey);
    expect(output).toContain("ops@example.com");
    const models = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(models.status).toBe(200);
    const user = await gateway.database.prisma.user.findFirst();
    expect(user?.email).toBe("ops@example.com");
    expect(user?.passwordHash).toMatch(/^scrypt\$/);
  });

  it("drains queued usage events into the database on close, with the key's last use", async () => {
    const directory = createTemporaryDirectory();
    cleanups.push(() => directory.remove());
    const logger = createRecordingLogger();
    const gateway = await startGateway({
      env: { GATEWAY_SECRET_KEY: secretKey },
      settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, usageFlushMs: 60_000 },
      logger,
    });
    const apiKey = printedApiKey(logger.lines);
    const response = await postDecision(gateway.url, { apiKey, body: decisionBody("demo/demo/decide") });
    await gateway.close();
    const reopened = await start(directory.path);
    const events = await reopened.gateway.database.prisma.usageEvent.findMany({ where: { requestId: response.requestId } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ endpoint: "decisions", status: 200, provider: "demo", content: null });
    // The key's "last used" went with that batch (through the SQLite writer thread): the time of its call.
    const key = await reopened.gateway.database.prisma.apiKey.findUniqueOrThrow({ where: { id: events[0]!.apiKeyId! } });
    expect(key.lastUsedAt).toEqual(events[0]!.occurredAt);
  });
});
