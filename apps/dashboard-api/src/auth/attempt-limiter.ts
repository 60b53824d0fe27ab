/** Settings of {@link createAttemptLimiter}. */
export interface AttemptLimiterSettings {
  /** How many hits a key may have inside the window. */
  limit: number;
  /** The sliding window, in ms. */
  windowMs: number;
  /** The clock (injected in tests). */
  now?: () => number;
}

/**
 * Counts hits per key in a sliding window (a log of timestamps per key) and tells how long a
 * key must wait once it reached its limit. Used for login failures (per account and per
 * client address) and for invitation resends. In process memory: each dashboard instance
 * counts on its own, which bounds guessing per instance.
 */
export interface AttemptLimiter {
  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfterSeconds(key: string): number;
  /** The key's hits inside the window (only those after `since`, epoch ms, when given). */
  count(key: string, since?: number): number;
  /** When the key's latest hit inside the window was (epoch ms), or null. */
  lastHit(key: string): number | null;
  /** Records one hit for the key. */
  hit(key: string): void;
  /** Forgets the key's hits (after a successful login). */
  reset(key: string): void;
}

/** Creates an {@link AttemptLimiter}. */
export function createAttemptLimiter(settings: AttemptLimiterSettings): AttemptLimiter {
  const now = settings.now ?? Date.now;
  const hits = new Map<string, number[]>();

  function recent(key: string): number[] {
    const list = hits.get(key);
    if (list === undefined) return [];
    const cutoff = now() - settings.windowMs;
    while (list.length > 0 && list[0]! <= cutoff) list.shift();
    if (list.length === 0) hits.delete(key);
    return list;
  }

  function sweep(): void {
    if (hits.size < 10_000) return;
    for (const key of [...hits.keys()]) recent(key);
  }

  return {
    retryAfterSeconds(key) {
      const list = recent(key);
      if (list.length < settings.limit) return 0;
      const oldestRelevant = list[list.length - settings.limit]!;
      return Math.max(1, Math.ceil((oldestRelevant + settings.windowMs - now()) / 1000));
    },
    count(key, since) {
      const list = recent(key);
      if (since === undefined) return list.length;
      let after = 0;
      for (let index = list.length - 1; index >= 0 && list[index]! > since; index -= 1) after += 1;
      return after;
    },
    lastHit(key) {
      return recent(key).at(-1) ?? null;
    },
    hit(key) {
      sweep();
      const list = recent(key);
      list.push(now());
      hits.set(key, list);
    },
    reset(key) {
      hits.delete(key);
    },
  };
}
