import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { type Database, createMcpToken, generateApiKey, generateToken, hashToken } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { startServerProcess } from "./support/server-process.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";


let directory: ReturnType<typeof createTemporaryDirectory>;
let local: RunningGateway<Database>;
let child: ChildProcess;
let childUrl: string;
const apiKey = generateApiKey().secret;

beforeAll(async () => {
  directory = createTemporaryDirectory();
  const env = { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), GATEWAY_API_KEY: apiKey };
  local = await startGateway({
    env,
    settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path },
    logger: createRecordingLogger(),
  });
  const started = await startServerProcess({
    ...env,
    GATEWAY_PORT: "0",
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_DATA_DIR: directory.path,
    GATEWAY_SNAPSHOT_POLL_MS: "250",
  });
  child = started.process;
  childUrl = started.url;
}, 30_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await local?.close();
  directory?.remove();
});

const listModels = (url: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });

describe("two gateway processes on one database", () => {
  it("an MCP token revoked by raw SQL from another process is refused by the child's MCP endpoint within one second", async () => {
    const key = await local.database.prisma.apiKey.findFirstOrThrow({ where: { revokedAt: null } });
    const secret = generateToken("gmt_");
    await createMcpToken(local.database, { organizationId: key.organizationId, apiKeyId: key.id, name: "ide", prefix: secret.slice(0, 8), tokenHash: hashToken(secret) });
    const listTools = async () =>
      (
        await fetch(`${childUrl}/mcp`, {
          method: "POST",
          headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
        })
      ).status;
    let status = 401;
    for (const started = Date.now(); status === 401 && Date.now() - started < 3000; ) {
      status = await listTools();
      if (status === 401) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe(200);
    const revokedAt = Date.now();
    expect(await local.database.prisma.$executeRawUnsafe("UPDATE mcp_tokens SET revoked_at = CURRENT_TIMESTAMP WHERE revoked_at IS NULL")).toBe(1);
    while (status !== 401 && Date.now() - revokedAt < 3000) {
      status = await listTools();
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const elapsed = Date.now() - revokedAt;
    console.log(`MCP token revocation seen by the child after ${elapsed} ms`);
    expect(status).toBe(401);
    expect(elapsed).toBeLessThan(1000);
  });

  it("a key revoked by raw SQL from another process is refused by the child within one second", async () => {
    expect((await listModels(childUrl)).status).toBe(200);
    const revokedAt = Date.now();
    const updated = await local.database.prisma.$executeRawUnsafe(
      "UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE revoked_at IS NULL",
    );
    expect(updated).toBe(1);
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 3000) {
      status = (await listModels(childUrl)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const elapsed = Date.now() - revokedAt;
    console.log(`revocation seen by the child after ${elapsed} ms`);
    expect(status).toBe(401);
    expect(elapsed).toBeLessThan(1000);
  });

  it("the child drains and exits cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
