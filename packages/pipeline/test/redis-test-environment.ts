import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** The Redis URL of the test run; unset skips the Redis suites (with a warning), unless CI is set. */
export const testRedisUrl = process.env.TEST_REDIS_URL;

if (!testRedisUrl) {
  if (process.env.CI) throw new Error("TEST_REDIS_URL must be set when CI is set: the pipeline's Redis suites cannot be skipped in CI.");
  console.warn("[@gateway/pipeline] TEST_REDIS_URL is not set: skipping the Redis affinity, pub/sub and notification-gate tests.");
}

/** A random key prefix per test run, so concurrent runs never share keys or channels. */
export function randomKeyPrefix(): string {
  return `test:pipeline:${randomBytes(8).toString("hex")}:`;
}

export function connectTestRedis(): Redis {
  const redis = new Redis(testRedisUrl!, { maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  return redis;
}

/** Deletes every key of a prefix. */
export async function deleteKeys(redis: Redis, keyPrefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${keyPrefix}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
}
