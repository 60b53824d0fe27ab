import type { Redis } from "ioredis";

/** Settings of {@link createNotificationGate}. */
export interface NotificationGateSettings {
  /** With Redis, "once" holds across every instance sharing it; without, per instance. */
  redis?: Redis | null;
  keyPrefix?: string;
  /** Most remembered keys in memory (default 10 000). */
  maxEntries?: number;
  clock?: () => number;
}

/** Lets one notification through per key and period (for events the store does not deduplicate). */
export interface NotificationGate {
  /** True the first time `key` is seen within `ttlSeconds` (Redis `SET NX EX`, else memory). */
  firstTime(key: string, ttlSeconds: number): Promise<boolean>;
}

/**
 * Creates a {@link NotificationGate}. On a Redis failure it falls back to the in-memory
 * record (a notification may then be sent once per instance).
 */
export function createNotificationGate(settings: NotificationGateSettings = {}): NotificationGate {
  const clock = settings.clock ?? Date.now;
  const maxEntries = settings.maxEntries ?? 10_000;
  const seen = new Map<string, number>();

  function firstInMemory(key: string, ttlSeconds: number): boolean {
    const now = clock();
    const until = seen.get(key);
    if (until !== undefined && until > now) return false;
    seen.delete(key);
    while (seen.size >= maxEntries) {
      const oldest = seen.keys().next();
      if (oldest.done) break;
      seen.delete(oldest.value);
    }
    seen.set(key, now + ttlSeconds * 1000);
    return true;
  }

  return {
    async firstTime(key, ttlSeconds) {
      const seconds = Math.max(1, Math.ceil(ttlSeconds));
      if (!firstInMemory(key, seconds)) return false;
      if (!settings.redis) return true;
      try {
        const set = await settings.redis.set(`${settings.keyPrefix ?? "gateway:"}n:${key}`, "1", "EX", seconds, "NX");
        return set === "OK";
      } catch {
        return true;
      }
    },
  };
}
