import { createServer } from "node:net";
import { GatewayError } from "@gateway/errors";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmissionController, createMemoryStore, createRedisStore, type BudgetRule, type RateLimitRule } from "../src/index.js";
import { createTestClock, defineAdmissionContract } from "./admission-contract.js";
import { defineSeedingContract } from "./seeding-contract.js";
import { connectTestRedis, deleteKeys, randomKeyPrefix, testRedisUrl } from "./redis-test-environment.js";

const caller = { organizationId: "org_1", projectId: "project_1", apiKeyId: "key_1", teamId: null };
const hardBudget: BudgetRule = {
  id: "budget_hard",
  scope: "project",
  scopeId: "project_1",
  amountMicros: 1_000_000,
  period: "day",
  mode: "hard",
  thresholds: [],
};
const softBudget: BudgetRule = { ...hardBudget, id: "budget_soft", mode: "soft", thresholds: [0.5] };
const requestLimit: RateLimitRule = {
  id: "limit_requests",
  scope: "key",
  scopeId: "key_1",
  windowSeconds: 60,
  requestsPerWindow: 1,
  tokensPerWindow: null,
  concurrency: null,
};

describe.skipIf(!testRedisUrl)("admission controller on the Redis store", () => {
  const keyPrefix = randomKeyPrefix();
  let cleaner: Redis;

  beforeAll(() => {
    cleaner = connectTestRedis();
  });

  afterAll(async () => {
    await deleteKeys(cleaner, keyPrefix);
    cleaner.disconnect();
  });

  describe("two instances, each with its own Redis connection", () => {
    let run = 0;
    defineAdmissionContract(async (clock) => {
      // Each test gets its own sub-prefix; the run's prefix is deleted after all tests.
      const prefix = `${keyPrefix}${(run += 1)}:`;
      const firstRedis = connectTestRedis();
      const secondRedis = connectTestRedis();
      return {
        first: createRedisStore({ redis: firstRedis, keyPrefix: prefix, clock }),
        second: createRedisStore({ redis: secondRedis, keyPrefix: prefix, clock }),
        async close() {
          firstRedis.disconnect();
          secondRedis.disconnect();
        },
      };
    });
    defineSeedingContract(async (clock) => {
      const prefix = `${keyPrefix}${(run += 1)}:`;
      const firstRedis = connectTestRedis();
      const secondRedis = connectTestRedis();
      return {
        first: createRedisStore({ redis: firstRedis, keyPrefix: prefix, clock }),
        second: createRedisStore({ redis: secondRedis, keyPrefix: prefix, clock }),
        // Redis restarted without persistence (or evicted the keys): this test's keys are gone.
        loseCounters: () => deleteKeys(cleaner, prefix),
        async close() {
          firstRedis.disconnect();
          secondRedis.disconnect();
        },
      };
    });
  });

  it("exposes the same interface as the memory store", () => {
    const redisStore = createRedisStore({ redis: cleaner, keyPrefix });
    expect(Object.keys(redisStore).sort()).toEqual(Object.keys(createMemoryStore()).sort());
  });

  it("gives every counter a TTL: period end + lease + margin for budgets, the window for logs, none for total", async () => {
    const redis = connectTestRedis();
    try {
      const prefix = `${keyPrefix}ttl:`;
      const clock = createTestClock(Date.parse("2026-11-22T12:00:00Z"));
      const controller = createAdmissionController({ store: createRedisStore({ redis, keyPrefix: prefix, clock }), leaseMs: 60_000, expiryMarginMs: 3_600_000 });
      const total: BudgetRule = { ...hardBudget, id: "budget_total", period: "total" };
      const limit: RateLimitRule = { ...requestLimit, requestsPerWindow: 10, tokensPerWindow: 1000, concurrency: 5 };
      const admission = await controller.admit({ ...caller, budgets: [hardBudget, total], rateLimits: [limit], estimatedCostMicros: 10, estimatedTokens: 10 });
      const budgetTtl = await redis.pttl(`${prefix}b:budget_hard:2026-11-22`);
      const expected = 12 * 3_600_000 + 60_000 + 3_600_000; // until midnight + lease + margin
      expect(budgetTtl).toBeGreaterThan(expected - 5_000);
      expect(budgetTtl).toBeLessThanOrEqual(expected);
      expect(await redis.pttl(`${prefix}b:budget_hard:2026-11-22:z`)).toBeGreaterThan(expected - 5_000);
      expect(await redis.pttl(`${prefix}b:budget_total:total`)).toBe(-1);
      for (const key of ["r:limit_requests:q", "r:limit_requests:t", "r:limit_requests:t:h"]) {
        const ttl = await redis.pttl(prefix + key);
        expect(ttl, key).toBeGreaterThan(55_000);
        expect(ttl, key).toBeLessThanOrEqual(60_000);
      }
      expect(await redis.pttl(`${prefix}r:limit_requests:c`)).toBeGreaterThan(55_000);
      await admission.settle({ costMicros: 5, tokens: 5 });
      expect(await redis.pttl(`${prefix}b:budget_hard:2026-11-22`)).toBeGreaterThan(expected - 5_000);
      // The reservation set empties on settle, and Redis drops empty sets.
      expect(await redis.exists(`${prefix}b:budget_total:total:z`)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});

describe("when Redis is down", () => {
  let closedPort: number;
  let redis: Redis;

  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closedPort = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    redis = new Redis({ host: "127.0.0.1", port: closedPort, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    redis.on("error", () => {});
  });

  afterAll(() => {
    redis.disconnect();
  });

  const admitWith = (settings: Parameters<typeof createAdmissionController>[0]["onRedisError"], rules: { budgets?: BudgetRule[]; rateLimits?: RateLimitRule[] }) => {
    const errors: unknown[] = [];
    const controller = createAdmissionController({
      store: createRedisStore({ redis, keyPrefix: "unreachable:", commandTimeoutMs: 500 }),
      onRedisError: settings,
      onStoreError: (error) => errors.push(error),
    });
    const admission = controller.admit({ ...caller, budgets: rules.budgets ?? [], rateLimits: rules.rateLimits ?? [], estimatedCostMicros: 100, estimatedTokens: 10 });
    return { admission, errors };
  };

  it("fails closed for hard budgets by default with 503 service_unavailable", async () => {
    const { admission, errors } = admitWith(undefined, { budgets: [hardBudget] });
    const error = await admission.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(GatewayError.isInstance(error) && error.code).toBe("service_unavailable");
    expect((error as GatewayError).status).toBe(503);
    expect(errors.length).toBe(1);
  });

  it("fails open for rate limits by default, marking the admission degraded", async () => {
    const { admission } = admitWith(undefined, { rateLimits: [requestLimit], budgets: [softBudget] });
    const admitted = await admission;
    expect(admitted.degraded).toBe(true);
    const settled = await admitted.settle({ costMicros: 10, tokens: 10 });
    expect(settled).toEqual({ recorded: false, thresholdCrossings: [] });
  });

  it("follows the opposite settings when configured", async () => {
    const open = await admitWith({ hardBudgets: "open" }, { budgets: [hardBudget] }).admission;
    expect(open.degraded).toBe(true);
    expect(open.reservedMicros).toBe(0);
    const closed = await admitWith({ rateLimits: "closed" }, { rateLimits: [requestLimit] }).admission.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(GatewayError.isInstance(closed) && closed.code).toBe("service_unavailable");
  });

  it("does not need the store when no hard budget or rate limit applies", async () => {
    const admitted = await admitWith({ hardBudgets: "closed", rateLimits: "closed" }, { budgets: [{ ...hardBudget, scopeId: "project_2" }] }).admission;
    expect(admitted.degraded).toBe(false);
  });
});

