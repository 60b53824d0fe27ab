import type { UsageEventRecord } from "@gateway/contracts";

/** Settings of {@link createApiKeyActivity}. */
export interface ApiKeyActivitySettings {
  /** Least time between two writes of one key's last use, in ms (default 60000: once a minute). */
  minimumIntervalMs?: number;
  /** The clock (epoch ms), injectable for tests (default `Date.now`). */
  now?: () => number;
}

/**
 * Which keys' "last used" time is due to be written. The usage queue hands it each batch's
 * events when it writes them (never per request): a key is due when it was never written by this
 * process or its last write is at least `minimumIntervalMs` old, so each key costs at most one
 * `UPDATE` per minute however many calls it makes. A use within the interval is kept and written
 * with a later batch once the interval has passed, or by `takeAll` at shutdown.
 */
export interface ApiKeyActivity {
  /** Notes the batch's uses; answers the last-used times to write with it now (possibly empty). */
  take(events: readonly UsageEventRecord[]): Map<string, Date>;
  /** The write of what `take` answered failed: those uses are due again with the next batch. */
  restore(taken: ReadonlyMap<string, Date>): void;
  /** Every noted use not written yet, interval or not (shutdown). */
  takeAll(): Map<string, Date>;
}

/** Per key: when this process last wrote it (clock ms, null: never) and the latest use not written yet. */
interface KeyActivity {
  writtenAt: number | null;
  unwritten: Date | null;
}

/** Creates an {@link ApiKeyActivity}. */
export function createApiKeyActivity(settings: ApiKeyActivitySettings = {}): ApiKeyActivity {
  const minimumIntervalMs = settings.minimumIntervalMs ?? 60_000;
  const now = settings.now ?? Date.now;
  const keys = new Map<string, KeyActivity>();

  const note = (apiKeyId: string, at: Date) => {
    let activity = keys.get(apiKeyId);
    if (activity === undefined) {
      activity = { writtenAt: null, unwritten: null };
      keys.set(apiKeyId, activity);
    }
    if (activity.unwritten === null || at > activity.unwritten) activity.unwritten = at;
  };

  return {
    take(events) {
      for (const event of events) {
        if (event.apiKeyId !== null && event.apiKeyId !== "") note(event.apiKeyId, event.occurredAt);
      }
      const due = new Map<string, Date>();
      const time = now();
      for (const [apiKeyId, activity] of keys) {
        const idle = activity.writtenAt === null || time - activity.writtenAt >= minimumIntervalMs;
        if (!idle) continue;
        if (activity.unwritten === null) {
          // Written long enough ago and not used since: forget it (the map holds active keys only).
          keys.delete(apiKeyId);
          continue;
        }
        due.set(apiKeyId, activity.unwritten);
        activity.writtenAt = time;
        activity.unwritten = null;
      }
      return due;
    },
    restore(taken) {
      for (const [apiKeyId, at] of taken) {
        note(apiKeyId, at);
        keys.get(apiKeyId)!.writtenAt = null;
      }
    },
    takeAll() {
      const all = new Map<string, Date>();
      const time = now();
      for (const [apiKeyId, activity] of keys) {
        if (activity.unwritten === null) continue;
        all.set(apiKeyId, activity.unwritten);
        activity.writtenAt = time;
        activity.unwritten = null;
      }
      return all;
    },
  };
}
