import type { UsageEventRecord } from "@gateway/contracts";

/** Writes usage events in batches (implemented by `@gateway/db`). May throw; the queue retries. */
export interface UsageSink {
  write(events: UsageEventRecord[]): Promise<void>;
}
