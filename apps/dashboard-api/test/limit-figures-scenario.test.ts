import { randomBytes } from "node:crypto";
import { generateApiKey, getOrganizationBySlug, listApiKeys, openDataPlaneDatabase } from "@gateway/db";
import { applyGatewayConfig, parseGatewayConfig, readGatewaySettings, serveGateway, type RunningGateway } from "@gateway/gateway";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LimitCounters } from "../src/services/limit-counters.js";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";
import { waitFor } from "./support/wait-for.js";
import { startFixedUsageProvider, type FixedUsageProvider } from "./support/fixed-usage-provider.js";

/**
 * "Numbers you can trust": after every step (spend, gateway restart, Redis restart, a budget created
 * mid-period, its amount changed, its spend reset) the Budgets page shows what the gateway's refusal
 * details say, and a call that would exceed the budget is refused. On SQLite with one gateway in the
 * dashboard's process (in-memory counters), and on PostgreSQL + Redis with two gateways.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const scenarios: { name: string; target: "sqlite" | "postgresql"; redis: boolean; gateways: number }[] = [
  { name: "SQLite, one gateway in the dashboard's process", target: "sqlite", redis: false, gateways: 1 },
  ...(databaseTargets.includes("postgresql") && redisUrl ? [{ name: "PostgreSQL + Redis, two gateways", target: "postgresql" as const, redis: true, gateways: 2 }] : []),
];
if (!redisUrl) console.warn("TEST_REDIS_URL is not set: the PostgreSQL + Redis scenario of the budget figures is skipped.");

/** $100 per million tokens, 10 + 10 tokens per call: every call costs 2,000 micro-USD. */
const pricePerMillion = 100;
const silentGatewayLogger = { info: () => undefined, error: () => undefined };

for (const scenario of scenarios) {
  describe(`budget figures: ${scenario.name}`, () => {
    const runId = randomBytes(6).toString("hex");
    const keyPrefix = `test:figures:${runId}:`;
    const secret = generateApiKey().secret;
    let provider: FixedUsageProvider;
    let harness: TestDashboard;
    let redis: Redis | null = null;
    let owner: string;
    let organizationId: string;
    let apiKeyId: string;
    let gateways: RunningGateway[] = [];
    /** The dashboard reads the live gateway's counters (one process, memory counters); it changes on restart. */
    const inProcessCounters: LimitCounters = {
      source: "instance_counters",
      reader: {
        readBudgetUsages: (budgets) => gateways[0]!.runtime.admission.readBudgetUsages(budgets),
        readRateLimitUsages: (limits) => gateways[0]!.runtime.admission.readRateLimitUsages(limits),
      },
    };

    const startGateways = async () => {
      const env: Record<string, string> = {
        DATABASE_URL: harness.databaseUrl,
        GATEWAY_PORT: "0",
        GATEWAY_HOST: "127.0.0.1",
        GATEWAY_USAGE_FLUSH_MS: "20",
        GATEWAY_SNAPSHOT_POLL_MS: "100",
        ...(scenario.redis ? { REDIS_URL: redisUrl!, GATEWAY_REDIS_KEY_PREFIX: keyPrefix } : {}),
      };
      gateways = await Promise.all(
        Array.from({ length: scenario.gateways }, () =>
          serveGateway(openDataPlaneDatabase({ url: harness.databaseUrl }), harness.secretBox, readGatewaySettings(env), silentGatewayLogger),
        ),
      );
    };
    const stopGateways = async () => {
      await Promise.all(gateways.map((gateway) => gateway.close()));
    };

    beforeAll(async () => {
      provider = await startFixedUsageProvider();
      if (scenario.redis) {
        redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
        redis.on("error", () => undefined);
      }
      harness = await startTestDashboard({
        target: scenario.target,
        settings: { redisKeyPrefix: keyPrefix },
        // With Redis the dashboard reads the shared counters itself; in one process it reads the gateway's.
        dependencies: scenario.redis ? { redis } : { limitCounters: inProcessCounters, onControlPlaneChange: () => Promise.all(gateways.map((gateway) => gateway.runtime.snapshots.refresh())).then(() => undefined) },
      });
      const env = { FIGURES_KEY: secret };
      const config = parseGatewayConfig(
        JSON.stringify({
          version: 1,
          organizations: [
            {
              slug: `figures-${runId}`,
              name: "Figures",
              projects: [{ name: "Main", apiKeys: [{ name: "caller", secret: "env:FIGURES_KEY" }] }],
              connections: [
                {
                  name: "fake",
                  kind: "openai",
                  baseUrl: provider.url,
                  credential: "sk-fake-credential",
                  models: ["openai/fixed"],
                  prices: { "openai/fixed": { input: pricePerMillion, output: pricePerMillion } },
                },
              ],
            },
          ],
        }),
        "figures.json",
      );
      await applyGatewayConfig(config, { db: harness.database, secretBox: harness.secretBox, env });
      organizationId = (await getOrganizationBySlug(harness.database, `figures-${runId}`))!.id;
      apiKeyId = (await listApiKeys(harness.database, { organizationId }))[0]!.id;
      const ownerAccount = await harness.createMember({ organizationId, role: "owner" });
      owner = await harness.login(ownerAccount.email, ownerAccount.password);
      await startGateways();
    }, 60_000);

    afterAll(async () => {
      await stopGateways();
      await harness?.close();
      if (redis !== null) {
        await flushCounters();
        await redis.quit();
      }
      await new Promise<void>((resolve) => provider?.server.close(() => resolve()));
    }, 30_000);

    /** Redis restarted without persistence: every key of this test is gone. */
    async function flushCounters(): Promise<void> {
      let cursor = "0";
      do {
        const [next, keys] = await redis!.scan(cursor, "MATCH", `${keyPrefix}*`, "COUNT", 1000);
        cursor = next;
        if (keys.length > 0) await redis!.del(...keys);
      } while (cursor !== "0");
    }

    let calls = 0;
    async function chat(gateway: RunningGateway) {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "fake/openai/fixed", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
      });
      const body = (await response.json()) as { error?: { code: string; details?: Record<string, number | string> } };
      if (response.status === 200) calls += 1;
      return { status: response.status, body };
    }
    /** Recorded spend of the caller's admitted calls, once every answered call is written. */
    async function recordedSpend(): Promise<number> {
      const rows = await waitFor(
        "the usage events to be written",
        () => harness.database.prisma.usageEvent.findMany({ where: { apiKeyId, status: 200 }, select: { costMicros: true } }),
        (found) => found.length === calls,
      );
      return rows.reduce((sum, row) => sum + Number(row.costMicros), 0);
    }
    async function budgetPage(id: string) {
      const response = await harness.request("GET", "/api/usage/budgets", { cookie: owner });
      expect(response.status, response.text).toBe(200);
      return (response.body.data as { budget_id: string; spent_micros: number; reserved_micros: number; amount_micros: number; source: string }[]).find(
        (status) => status.budget_id === id,
      )!;
    }
    /** Every gateway serves this version of the budget (the change reached it). */
    async function servedEverywhere(budget: { id: string; updated_at: string }) {
      const version = String(Date.parse(budget.updated_at));
      await waitFor(
        "the budget change to reach every gateway",
        () => gateways.map((gateway) => gateway.runtime.snapshots.current().snapshot.budgets.find((rule) => rule.id === budget.id)?.counterVersion),
        (versions) => versions.every((served) => served === version),
      );
    }
    /**
     * Calls until the budget refuses one (at most 20 calls, alternating gateways); before each call
     * the page is read: at the refusal its figures must be exactly the refusal's. Returns the refusal.
     */
    async function spendUntilRefused(budgetId: string) {
      for (let attempt = 0; attempt < 20; attempt++) {
        await recordedSpend();
        const page = await waitFor("no reservation in flight", () => budgetPage(budgetId), (status) => status.reserved_micros === 0);
        const result = await chat(gateways[attempt % gateways.length]!);
        if (result.status === 200) continue;
        expect(result.status, JSON.stringify(result.body)).toBe(424);
        const details = result.body.error!.details!;
        expect(details).toMatchObject({ budget_id: budgetId });
        expect({ spent_micros: page.spent_micros, reserved_micros: page.reserved_micros }).toEqual({
          spent_micros: details.spent_micros,
          reserved_micros: details.reserved_micros,
        });
        // It was refused because it would exceed the budget.
        expect(Number(details.spent_micros) + Number(details.reserved_micros) + Number(details.requested_micros)).toBeGreaterThan(Number(details.limit_micros));
        return { page, details };
      }
      throw new Error("no call was refused");
    }

    it("shows what admission enforces after spend, restarts, creation mid-period, an amount change and a reset", async () => {
      const source = scenario.redis ? "shared_counters" : "instance_counters";
      // Spend without a budget.
      for (let index = 0; index < 3; index++) expect((await chat(gateways[index % gateways.length]!)).status).toBe(200);
      const spent = await recordedSpend();
      const perCall = spent / 3;
      expect(perCall).toBe(2_000);

      // A hard budget created after the spend, below it: the page shows the recorded spend (not 0) and the first call is refused.
      const created = await harness.request("POST", "/api/budgets", {
        cookie: owner,
        body: { name: "cap", scope: "key", scope_id: apiKeyId, amount_micros: 2 * perCall, period: "month", mode: "hard" },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      await servedEverywhere(created.body);
      expect(await budgetPage(id)).toMatchObject({ spent_micros: spent, reserved_micros: 0, source });
      const first = await chat(gateways[0]!);
      expect(first.status).toBe(424);
      expect(first.body.error!.details).toMatchObject({ spent_micros: spent, reserved_micros: 0 });
      for (const gateway of gateways) expect((await chat(gateway)).body.error?.details).toMatchObject({ spent_micros: spent });

      // The gateways restart: their counters are rebuilt from recorded usage, never read as 0.
      await stopGateways();
      await startGateways();
      expect(await budgetPage(id)).toMatchObject({ spent_micros: spent, source });
      for (const gateway of gateways) expect((await chat(gateway)).body.error?.details).toMatchObject({ spent_micros: spent });

      if (scenario.redis) {
        // Redis restarts without persistence: the shared counters are rebuilt on the next admission (or page read).
        await flushCounters();
        expect((await chat(gateways[1]!)).body.error?.details).toMatchObject({ spent_micros: spent, reserved_micros: 0 });
        await flushCounters();
        expect(await budgetPage(id)).toMatchObject({ spent_micros: spent, reserved_micros: 0 });
        expect((await chat(gateways[0]!)).body.error?.details).toMatchObject({ spent_micros: spent });
      }

      // The amount changes: a fresh counter from recorded usage; calls fit until the new amount would be exceeded.
      const changed = await harness.request("PATCH", `/api/budgets/${id}`, { cookie: owner, body: { amount_micros: 12 * perCall } });
      expect(changed.status, changed.text).toBe(200);
      await servedEverywhere(changed.body);
      expect(await budgetPage(id)).toMatchObject({ spent_micros: spent, amount_micros: 12 * perCall });
      const afterChange = await spendUntilRefused(id);
      expect(afterChange.page.spent_micros).toBe(await recordedSpend());
      expect(afterChange.page.spent_micros).toBeGreaterThan(spent);

      // The owner resets the spend: the period counts from the reset on, on every gateway.
      const reset = await harness.request("POST", `/api/budgets/${id}/reset`, { cookie: owner });
      expect(reset.status, reset.text).toBe(200);
      expect(reset.body.spend_reset).toMatchObject({ baseline_micros: await recordedSpend() });
      await servedEverywhere(reset.body);
      expect(await budgetPage(id)).toMatchObject({ spent_micros: 0, reserved_micros: 0, spend_reset_at: expect.any(String) });
      const beforeResetCalls = calls;
      const afterReset = await spendUntilRefused(id);
      expect(calls).toBeGreaterThan(beforeResetCalls);
      expect(afterReset.page.spent_micros).toBe((calls - beforeResetCalls) * perCall);

      // And once more after a restart: the reset holds (baseline subtracted from the rebuilt counter).
      await stopGateways();
      await startGateways();
      const refusal = (await chat(gateways[gateways.length - 1]!)).body.error!.details!;
      expect(refusal).toMatchObject({ spent_micros: afterReset.page.spent_micros });
      expect(await budgetPage(id)).toMatchObject({ spent_micros: afterReset.page.spent_micros });
    }, 90_000);

    it("shows a rate limit's admitted calls in its window: a new limit starts at 0 and refused calls do not count", async () => {
      const created = await harness.request("POST", "/api/rate-limits", {
        cookie: owner,
        body: { scope: "key", scope_id: apiKeyId, window_seconds: 60, requests_per_window: 3 },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      await waitFor(
        "the rate limit to reach every gateway",
        () => gateways.every((gateway) => gateway.runtime.snapshots.current().snapshot.rateLimits.some((limit) => limit.id === id)),
        (served) => served,
      );
      const page = async () =>
        ((await harness.request("GET", "/api/usage/rate-limits", { cookie: owner })).body.data as { rate_limit_id: string; requests: number; requests_remaining: number; source: string }[]).find(
          (status) => status.rate_limit_id === id,
        )!;
      // Many calls were made before the limit existed: none of them is the limit's.
      expect(await page()).toMatchObject({ requests: 0, requests_remaining: 3, source: scenario.redis ? "shared_counters" : "instance_counters" });
      // The first test's budget refuses chat calls: delete it, so that only the limit decides.
      for (const budget of (await harness.request("GET", "/api/budgets", { cookie: owner })).body.data as { id: string }[]) {
        expect((await harness.request("DELETE", `/api/budgets/${budget.id}`, { cookie: owner })).status).toBe(200);
      }
      await waitFor("the budget deletion to reach every gateway", () => gateways.every((gateway) => gateway.runtime.snapshots.current().snapshot.budgets.length === 0), (gone) => gone);
      const statuses: number[] = [];
      for (let index = 0; index < 5; index++) statuses.push((await chat(gateways[index % gateways.length]!)).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(await page()).toMatchObject({ requests: 3, requests_remaining: 0 });

      // A token window of an hour survives a restart (and a Redis that lost its keys): rebuilt from recorded usage.
      expect((await harness.request("DELETE", `/api/rate-limits/${id}`, { cookie: owner })).status).toBe(200);
      const hourly = (await harness.request("POST", "/api/rate-limits", { cookie: owner, body: { scope: "key", scope_id: apiKeyId, window_seconds: 3600, tokens_per_window: 100_000 } })).body
        .id as string;
      await waitFor(
        "the hourly limit to reach every gateway",
        () => gateways.every((gateway) => gateway.runtime.snapshots.current().snapshot.rateLimits.map((limit) => limit.id).join() === hourly),
        (served) => served,
      );
      const tokensOf = async () =>
        ((await harness.request("GET", "/api/usage/rate-limits", { cookie: owner })).body.data as { rate_limit_id: string; tokens: number }[]).find((status) => status.rate_limit_id === hourly)!
          .tokens;
      // Calls from before the limit existed are not its calls.
      expect(await tokensOf()).toBe(0);
      for (let index = 0; index < 2; index++) expect((await chat(gateways[index % gateways.length]!)).status).toBe(200);
      await recordedSpend();
      expect(await tokensOf()).toBe(40);
      await stopGateways();
      if (scenario.redis) await flushCounters();
      await startGateways();
      expect(await tokensOf()).toBe(40);
    }, 60_000);
  });
}
