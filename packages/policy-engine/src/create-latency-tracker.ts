/** Observed latency per target, as an exponentially weighted moving average. */
export interface LatencyTracker {
  /** Records one observation (milliseconds, e.g. time to first byte) for a target. */
  record(target: string, latencyMs: number): void;
  /** The moving average, or `undefined` for a target never observed. */
  estimate(target: string): number | undefined;
}

/** Settings of {@link createLatencyTracker}. */
export interface LatencyTrackerSettings {
  /** Weight of the newest observation, in (0, 1]. Default 0.3. */
  alpha?: number;
  /** Most targets tracked; the least recently updated goes first. Default 10 000. */
  maxEntries?: number;
}

/**
 * Creates a latency tracker: `average = alpha * latest + (1 - alpha) * average`, the first
 * observation taken as is. Targets are keyed by their qualified model id.
 */
export function createLatencyTracker(settings: LatencyTrackerSettings = {}): LatencyTracker {
  const alpha = settings.alpha ?? 0.3;
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError("alpha must be in (0, 1].");
  const maxEntries = Math.max(1, settings.maxEntries ?? 10_000);
  const averages = new Map<string, number>();
  return {
    record(target, latencyMs) {
      if (!Number.isFinite(latencyMs) || latencyMs < 0) return;
      const previous = averages.get(target);
      const next = previous === undefined ? latencyMs : alpha * latencyMs + (1 - alpha) * previous;
      averages.delete(target);
      if (averages.size >= maxEntries) {
        const oldest = averages.keys().next();
        if (!oldest.done) averages.delete(oldest.value);
      }
      averages.set(target, next);
    },
    estimate(target) {
      return averages.get(target);
    },
  };
}
