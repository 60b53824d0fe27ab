import type { AffinityStore } from "@gateway/policy-engine";
import type { Redis } from "ioredis";

/** Settings of {@link createRedisAffinityStore}. */
export interface RedisAffinityStoreSettings {
  redis: Redis;
  /** Prefix of every key (for example `gateway:`); entries live under `<prefix>a:<affinity key>`. */
  keyPrefix: string;
  /** Longest wait for one Redis command before treating it as failed (default 250 ms). */
  commandTimeoutMs?: number;
  /** Told about failed commands (the call then proceeds without affinity). */
  onError?: (error: unknown) => void;
}

/**
 * A session-affinity store shared by every gateway instance: one Redis string per session
 * key with the route's TTL (`SET ... EX`), so a session sticks to the same target whichever
 * instance serves it. Affinity is an optimisation, so Redis failures never fail a call: a
 * failed or slow lookup answers "no remembered target" and failed writes are ignored
 * (both reported to `onError`).
 */
export function createRedisAffinityStore(settings: RedisAffinityStoreSettings): AffinityStore {
  const timeoutMs = settings.commandTimeoutMs ?? 250;
  const keyOf = (key: string) => `${settings.keyPrefix}a:${key}`;

  async function guarded<T>(command: () => Promise<T>, fallback: T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        command(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms.`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      settings.onError?.(error);
      return fallback;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    get: (key) => guarded(() => settings.redis.get(keyOf(key)), null),
    set(key, target, ttlSeconds) {
      const seconds = Math.ceil(ttlSeconds);
      return guarded(async () => {
        if (seconds <= 0) await settings.redis.del(keyOf(key));
        else await settings.redis.set(keyOf(key), target, "EX", seconds);
      }, undefined);
    },
    delete: (key) => guarded(async () => void (await settings.redis.del(keyOf(key))), undefined),
  };
}
