import type { AffinityStore } from "./affinity-store.js";

/** Settings of {@link createMemoryAffinityStore}. */
export interface MemoryAffinityStoreSettings {
  /** Most entries kept; the least recently set entry goes first. Default 100 000. */
  maxEntries?: number;
  /** Clock in epoch milliseconds (injectable for tests). Default `Date.now`. */
  now?: () => number;
}

/** An in-process {@link AffinityStore} with per-entry TTL and a bounded size. */
export function createMemoryAffinityStore(settings: MemoryAffinityStoreSettings = {}): AffinityStore & { readonly size: number } {
  const maxEntries = Math.max(1, settings.maxEntries ?? 100_000);
  const now = settings.now ?? Date.now;
  const entries = new Map<string, { target: string; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return null;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return null;
      }
      return entry.target;
    },
    set(key, target, ttlSeconds) {
      entries.delete(key);
      if (ttlSeconds <= 0) return;
      while (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
      entries.set(key, { target, expiresAt: now() + ttlSeconds * 1000 });
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
