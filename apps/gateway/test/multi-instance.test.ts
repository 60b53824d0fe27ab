import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { tmpdir } from "node:os";
import {
  type Database,
  createDatabase,
  generateApiKey,
  getOrganizationBySlug,
  listApiKeys,
  listBudgets,
  listDailyUsage,
  loadSecretBoxFromEnvironment,
  revokeApiKey,
} from "@gateway/db";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyGatewayConfig } from "../src/config-file/apply-gateway-config.js";
import { parseGatewayConfig } from "../src/config-file/load-gateway-config.js";
import { type ServerProcess, startServerProcess, stopServerProcess } from "./support/server-process.js";

/**
 * Two gateway PROCESSES (the built `dist/main.js`) on one PostgreSQL schema and one Redis key
 * prefix, no load balancer: the test splits every burst across both.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const missing = !databaseUrl || !redisUrl;
if (missing) {
  if (process.env.CI) throw new Error("TEST_DATABASE_URL and TEST_REDIS_URL must be set when CI is set: the multi-instance tests cannot be skipped in CI.");
  console.warn("[@gateway/gateway] TEST_DATABASE_URL or TEST_REDIS_URL is not set: skipping the multi-instance tests.");
}

const runId = randomBytes(6).toString("hex");
const schema = `gw_multi_${runId}`;
const keyPrefix = `test:gateway:${runId}:`;
const secretKey = randomBytes(32).toString("base64");
const keys = { limited: generateApiKey().secret, budgeted: generateApiKey().secret, revocable: generateApiKey().secret };
const requestsPerMinute = 37;
const budgetUsd = 0.25;
/** $100 per million tokens: every token costs 100 micro-USD. */
const pricePerMillion = 100;

function withSchema(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("schema", name);
  return parsed.toString();
}

/** An OpenAI-compatible fake: random usage within the request's `max_tokens`. */
async function startRandomUsageProvider() {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string; max_tokens?: number; max_completion_tokens?: number };
      const cap = body.max_completion_tokens ?? body.max_tokens ?? 16;
      const promptTokens = 1 + Math.floor(Math.random() * 8);
      const completionTokens = 1 + Math.floor(Math.random() * cap);
      const answer = {
        id: `chatcmpl-${randomBytes(4).toString("hex")}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: "ok", refusal: null }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      };
      setTimeout(() => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer)), Math.random() * 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.skipIf(missing)("two gateway processes sharing PostgreSQL and Redis", () => {
  let database: Database;
  let provider: Awaited<ReturnType<typeof startRandomUsageProvider>>;
  let instances: ServerProcess[] = [];
  let organizationId: string;

  beforeAll(async () => {
    provider = await startRandomUsageProvider();
    const url = withSchema(databaseUrl!, schema);
    database = createDatabase({ url });
    await database.migrate();
    const env = { GATEWAY_SECRET_KEY: secretKey, LIMITED_KEY: keys.limited, BUDGETED_KEY: keys.budgeted, REVOCABLE_KEY: keys.revocable };
    const secretBox = loadSecretBoxFromEnvironment({ env, generateWhenMissing: false });
    const config = parseGatewayConfig(
      JSON.stringify({
        version: 1,
        organizations: [
          {
            slug: "multi",
            name: "Multi instance",
            projects: [
              {
                name: "Load",
                apiKeys: [
                  { name: "limited", secret: "env:LIMITED_KEY" },
                  { name: "budgeted", secret: "env:BUDGETED_KEY" },
                  { name: "revocable", secret: "env:REVOCABLE_KEY" },
                ],
              },
            ],
            connections: [
              { name: "demo", kind: "demo", models: ["demo/decide", "demo/chat"] },
              {
                name: "fake",
                kind: "openai",
                baseUrl: `${provider.url}/v1`,
                credential: "sk-fake-credential",
                models: ["openai/random"],
                prices: { "openai/random": { input: pricePerMillion, output: pricePerMillion } },
              },
            ],
            budgets: [{ name: "tight", scope: "key", project: "Load", key: "budgeted", amountUsd: budgetUsd, period: "month", mode: "hard", thresholds: [0.5] }],
            rateLimits: [{ scope: "key", project: "Load", key: "limited", windowSeconds: 60, requestsPerWindow: requestsPerMinute }],
          },
        ],
      }),
      "multi-instance.json",
    );
    await applyGatewayConfig(config, { db: database, secretBox, env });
    organizationId = (await getOrganizationBySlug(database, "multi"))!.id;
    const shared = {
      GATEWAY_SECRET_KEY: secretKey,
      GATEWAY_PORT: "0",
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_DATA_DIR: path.join(tmpdir(), `gateway-multi-${runId}`),
      DATABASE_URL: url,
      REDIS_URL: redisUrl!,
      GATEWAY_REDIS_KEY_PREFIX: keyPrefix,
      GATEWAY_USAGE_FLUSH_MS: "100",
    };
    // Instance A polls often; instance B slowly, so B usually learns of changes through A's
    // Redis announcement before its own poll (the test checks the announcement was made).
    instances = await Promise.all([
      // LISTEN off: these instances must hear changes through polling and Redis announcements
      // (PostgreSQL LISTEN has its own test, postgresql-listen.test.ts).
      startServerProcess({ ...shared, GATEWAY_SNAPSHOT_POLL_MS: "100", GATEWAY_POSTGRES_LISTEN: "off" }),
      startServerProcess({ ...shared, GATEWAY_SNAPSHOT_POLL_MS: "700", GATEWAY_POSTGRES_LISTEN: "off" }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => stopServerProcess(instance.process)));
    if (database) {
      await database.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await database.close();
    }
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
    let cursor = "0";
    do {
      const [next, found] = await redis.scan(cursor, "MATCH", `${keyPrefix}*`, "COUNT", 1000);
      cursor = next;
      if (found.length > 0) await redis.del(...found);
    } while (cursor !== "0");
    await redis.quit();
    await provider?.close();
  }, 30_000);

  it(`a limit of ${requestsPerMinute} requests per minute admits exactly ${requestsPerMinute} of 200 concurrent requests across both`, async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        fetch(`${instances[index % 2]!.url}/v1/systemone`, {
          method: "POST",
          headers: { authorization: `Bearer ${keys.limited}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "demo/demo/decide", state: `call ${index}`, questions: { go: { type: "noul", instructions: "Go?" } } }),
        }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as any, instance: index % 2 })),
      ),
    );
    const admitted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 429);
    console.log(
      `rate limit ${requestsPerMinute}/min: admitted ${admitted.length} (instance A ${admitted.filter((r) => r.instance === 0).length}, ` +
        `B ${admitted.filter((r) => r.instance === 1).length}), refused ${refused.length}`,
    );
    expect(admitted.length + refused.length).toBe(200);
    expect(admitted).toHaveLength(requestsPerMinute);
    for (const response of refused) {
      expect(response.body.error.code).toBe("gateway_rate_limit_exceeded");
      expect(response.retryAfter).toMatch(/^[1-9][0-9]*$/);
    }
    expect(new Set(admitted.map((response) => response.instance)).size).toBe(2);
  }, 30_000);

  it("a key revoked through the database is refused by the other instance within one second", async () => {
    const listModels = (url: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${keys.revocable}` } });
    expect((await listModels(instances[1]!.url)).status).toBe(200);
    const revocable = (await listApiKeys(database, { organizationId })).find((key) => key.name === "revocable")!;
    const listener = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
    const announcements: string[] = [];
    listener.on("message", (_channel: string, message: string) => announcements.push(message));
    await listener.subscribe(`${keyPrefix}control-plane`);
    const revokedAt = Date.now();
    await revokeApiKey(database, { organizationId, id: revocable.id });
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 3000) {
      status = (await listModels(instances[1]!.url)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const elapsed = Date.now() - revokedAt;
    console.log(`revocation refused by instance B (poll 700 ms) after ${elapsed} ms; announcements: ${announcements.length}`);
    await listener.quit();
    expect(status).toBe(401);
    expect(elapsed).toBeLessThan(1000);
    // Instance A noticed the change by polling and announced the new version through Redis.
    expect(announcements.length).toBeGreaterThan(0);
    expect(JSON.parse(announcements[0]!)).toMatchObject({ version: expect.any(String) });
  }, 10_000);

  it("a hard budget is never exceeded by the settled spend of 200 concurrent calls of random sizes", async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        fetch(`${instances[index % 2]!.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${keys.budgeted}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: "fake/openai/random",
            max_tokens: 20 + Math.floor(Math.random() * 400),
            messages: [{ role: "user", content: `Say something (${index}).` }],
          }),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as any })),
      ),
    );
    const admitted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 424);
    expect(admitted.length + refused.length, JSON.stringify(responses.find((r) => r.status !== 200 && r.status !== 424))).toBe(200);
    for (const response of refused) expect(response.body.error.code).toBe("hard_budget_exceeded");
    expect(admitted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);

    // Drain both instances (SIGTERM flushes their usage queues), then read what was recorded.
    await Promise.all(instances.map((instance) => stopServerProcess(instance.process)));
    const budgetedKey = (await listApiKeys(database, { organizationId })).find((key) => key.name === "budgeted")!;
    const rows = await database.prisma.$queryRawUnsafe<{ calls: bigint; spent: bigint | null }[]>(
      `SELECT COUNT(*) AS calls, SUM(cost_micros) AS spent FROM usage_events WHERE api_key_id = $1 AND endpoint = 'chat_completions'`,
      budgetedKey.id,
    );
    const eventSpend = Number(rows[0]!.spent ?? 0);
    const rollups = await listDailyUsage(database, { organizationId, apiKeyId: budgetedKey.id });
    const rollupSpend = rollups.reduce((sum, row) => sum + row.costMicros, 0);
    const budget = (await listBudgets(database, organizationId)).find((candidate) => candidate.name === "tight")!;
    console.log(
      `hard budget ${budget.amountMicros} micro-USD: admitted ${admitted.length}, refused ${refused.length}; ` +
        `settled spend ${eventSpend} micro-USD (${((eventSpend / budget.amountMicros) * 100).toFixed(1)}% of the budget), rollups ${rollupSpend}`,
    );
    expect(Number(rows[0]!.calls)).toBe(200);
    expect(eventSpend).toBeGreaterThan(0);
    expect(eventSpend).toBeLessThanOrEqual(budget.amountMicros);
    expect(rollupSpend).toBe(eventSpend);
  }, 40_000);
});
