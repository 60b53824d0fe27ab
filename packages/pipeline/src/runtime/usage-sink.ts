import type { UsageEventRecord } from "@gateway/contracts";

/** What a usage batch carries besides its events. */
export interface UsageWriteOptions {
  /**
   * Keys' last use to record with the batch (`api_keys.last_used_at` by key id): at most one
   * entry per key per minute (see `createApiKeyActivity`). A batch may carry only these.
   */
  apiKeysLastUsed?: ReadonlyMap<string, Date>;
}

/** Writes usage events in batches (implemented by `@gateway/db`). May throw; the queue retries. */
export interface UsageSink {
  write(events: UsageEventRecord[], options?: UsageWriteOptions): Promise<void>;
}
