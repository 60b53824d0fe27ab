import type { UsageEventRecord } from "@gateway/contracts";
import type { ApiKeyActivity } from "./api-key-activity.js";
import type { UsageSink } from "./usage-sink.js";

/** Settings of {@link createUsageQueue}. */
export interface UsageQueueSettings {
  sink: UsageSink;
  /** Events per write (default 500). A full batch is written without waiting for the interval. */
  maxBatchSize?: number;
  /** How often queued events are written, in ms (default 1000). */
  flushIntervalMs?: number;
  /** First retry delay after a failed write, doubled per failure up to `maxRetryDelayMs` (default 500). */
  retryDelayMs?: number;
  /** Upper bound of the retry delay (default 30000). */
  maxRetryDelayMs?: number;
  /**
   * Events kept in memory at most while the sink is failing (default 100000). Beyond it the
   * oldest events are dropped and reported through `onError`, so that a dead database cannot
   * exhaust the gateway's memory.
   */
  maxQueuedEvents?: number;
  /**
   * Records the keys' last use with the batches (`apiKeysLastUsed` of the sink's write): at most
   * once per key per its interval; when the queue is empty, due keys are written on the timer
   * alone, and `close` writes what is left. Unset: no last-use writes.
   */
  apiKeyActivity?: ApiKeyActivity;
  /** Told about failed writes and dropped events (`lastUsedKeys`: a write of keys' last use only). */
  onError?: (error: unknown, context: { failedEvents?: number; droppedEvents?: number; lastUsedKeys?: number }) => void;
}

/**
 * Batches usage events off the request path. `enqueue` only appends to memory; writes
 * happen on a timer or when a batch is full, one at a time. A failed batch goes back to the
 * front of the queue and is retried with backoff; `close` drains what is left.
 */
export interface UsageQueue {
  /** Appends an event; never waits and never throws. */
  enqueue(event: UsageEventRecord): void;
  /** Writes everything queued now (one batch after another). Rejects if a write fails. */
  flush(): Promise<void>;
  /** Stops the timer and drains, retrying failed writes until `timeoutMs` (default 10000). */
  close(options?: { timeoutMs?: number }): Promise<void>;
  /** Events waiting to be written. */
  readonly size: number;
}

/** Creates a {@link UsageQueue}. */
export function createUsageQueue(settings: UsageQueueSettings): UsageQueue {
  const maxBatchSize = settings.maxBatchSize ?? 500;
  const flushIntervalMs = settings.flushIntervalMs ?? 1000;
  const retryDelayMs = settings.retryDelayMs ?? 500;
  const maxRetryDelayMs = settings.maxRetryDelayMs ?? 30_000;
  const maxQueuedEvents = settings.maxQueuedEvents ?? 100_000;
  let queue: UsageEventRecord[] = [];
  let writing: Promise<void> | undefined;
  let failures = 0;
  let retryNotBefore = 0;
  let closed = false;

  const timer = setInterval(() => {
    if (Date.now() < retryNotBefore) return;
    // Keys used only within their interval so far are written once it has passed, traffic or not.
    if (queue.length === 0) void writeLastUsed(false);
    else void flushInBackground();
  }, flushIntervalMs);
  timer.unref();

  const activity = settings.apiKeyActivity;

  /** Writes one batch with the keys' last use that is due; on failure puts both back. */
  async function writeBatch(): Promise<void> {
    const batch = queue.slice(0, maxBatchSize);
    queue = queue.slice(batch.length);
    const lastUsed = activity?.take(batch);
    try {
      if (lastUsed === undefined || lastUsed.size === 0) await settings.sink.write(batch);
      else await settings.sink.write(batch, { apiKeysLastUsed: lastUsed });
      failures = 0;
      retryNotBefore = 0;
    } catch (error) {
      queue = batch.concat(queue);
      if (lastUsed !== undefined) activity!.restore(lastUsed);
      failures += 1;
      retryNotBefore = Date.now() + Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (failures - 1));
      settings.onError?.(error, { failedEvents: batch.length });
      throw error;
    }
  }

  /** Writes keys' last use without events (`all`: interval or not, at close); a failure is reported, not thrown. */
  async function writeLastUsed(all: boolean): Promise<void> {
    if (activity === undefined || writing) return;
    const lastUsed = all ? activity.takeAll() : activity.take([]);
    if (lastUsed.size === 0) return;
    writing = settings.sink
      .write([], { apiKeysLastUsed: lastUsed })
      .catch((error: unknown) => {
        activity.restore(lastUsed);
        settings.onError?.(error, { lastUsedKeys: lastUsed.size });
      })
      .finally(() => {
        writing = undefined;
      });
    await writing;
  }

  async function flush(): Promise<void> {
    let batchesWritten = 0;
    while (queue.length > 0) {
      if (writing) {
        await writing.catch(() => undefined);
        continue;
      }
      // An embedded database (SQLite) writes synchronously on this thread: give requests a
      // turn of the event loop between batches instead of draining a whole backlog at once.
      if (batchesWritten > 0) await new Promise((resolve) => setImmediate(resolve));
      if (writing || queue.length === 0) continue;
      writing = writeBatch().finally(() => {
        writing = undefined;
      });
      await writing;
      batchesWritten += 1;
    }
  }

  function flushInBackground(): Promise<void> {
    return flush().catch(() => undefined);
  }

  return {
    enqueue(event) {
      queue.push(event);
      if (queue.length > maxQueuedEvents) {
        const dropped = queue.length - maxQueuedEvents;
        queue.splice(0, dropped);
        settings.onError?.(new Error(`Usage queue full: dropped ${dropped} oldest event(s).`), { droppedEvents: dropped });
      }
      if (queue.length >= maxBatchSize && !writing && !closed && Date.now() >= retryNotBefore) {
        void flushInBackground();
      }
    },
    flush,
    async close(options = {}) {
      closed = true;
      clearInterval(timer);
      const giveUpAt = Date.now() + (options.timeoutMs ?? 10_000);
      while ((queue.length > 0 || writing) && Date.now() < giveUpAt) {
        try {
          if (writing) await writing;
          await flush();
        } catch {
          const wait = Math.min(Math.max(0, retryNotBefore - Date.now()), giveUpAt - Date.now());
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
        }
      }
      if (queue.length > 0) {
        settings.onError?.(new Error(`Usage queue closed with ${queue.length} unwritten event(s).`), {
          droppedEvents: queue.length,
        });
      } else {
        if (writing) await writing.catch(() => undefined);
        await writeLastUsed(true);
      }
    },
    get size() {
      return queue.length;
    },
  };
}
