// Admissions + settlements per second through the admission controller (one hard budget,
// one soft budget, one rate limit with requests, tokens and concurrency), with N calls in flight.
// Usage: pnpm --filter @gateway/budget build && node packages/budget/bench/admission-throughput.mjs [redis://127.0.0.1:6379]
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { createAdmissionController, createMemoryStore, createRedisStore } from "../dist/index.js";

const redisUrl = process.argv[2] ?? process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
const total = 20_000;
const inFlight = 64;
const caller = { organizationId: "org", projectId: "project", apiKeyId: "key", teamId: null };
const budgets = [
  { id: "hard", scope: "project", scopeId: "project", amountMicros: Number.MAX_SAFE_INTEGER, period: "month", mode: "hard", thresholds: [] },
  { id: "soft", scope: "organization", scopeId: "org", amountMicros: 1e12, period: "day", mode: "soft", thresholds: [0.5, 0.8, 1] },
];
const rateLimits = [
  { id: "limit", scope: "key", scopeId: "key", windowSeconds: 60, requestsPerWindow: 1e9, tokensPerWindow: 1e12, concurrency: 1e6 },
];

async function run(name, store, cleanup) {
  const controller = createAdmissionController({ store });
  let next = 0;
  const latencies = [];
  async function worker() {
    while (next < total) {
      next += 1;
      const started = performance.now();
      const admission = await controller.admit({ ...caller, budgets, rateLimits, estimatedCostMicros: 5000, estimatedTokens: 1000 });
      const admitted = performance.now();
      await admission.settle({ costMicros: 1200, tokens: 600 });
      latencies.push(admitted - started);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const percentile = (p) => latencies[Math.floor((latencies.length - 1) * p)].toFixed(3);
  console.log(`${name}: ${Math.round(total / seconds)} admit+settle/s, admit latency p50 ${percentile(0.5)} ms p99 ${percentile(0.99)} ms (${inFlight} in flight)`);
  await cleanup?.();
}

await run("memory", createMemoryStore());
if (redisUrl) {
  const redis = new Redis(redisUrl);
  const keyPrefix = `bench:budget:${randomBytes(6).toString("hex")}:`;
  await run("redis", createRedisStore({ redis, keyPrefix }), async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });
}
