import { Worker } from "node:worker_threads";
import type { UsageEventRecord } from "@gateway/contracts";
import type { UsageWriterReply, UsageWriterRequest, UsageWriterWorkerData } from "./usage-writer-messages.js";

/** A request without its id (distributed over the union's members). */
type UsageWriterRequestBody = UsageWriterRequest extends infer Request ? (Request extends UsageWriterRequest ? Omit<Request, "id"> : never) : never;

/** Options of {@link openUsageWriterThread}. */
export interface UsageWriterThreadOptions {
  /** The SQLite database: a `file:` URL (as `resolveDatabaseUrl` returns it). */
  url: string;
  /** How long a write waits for another connection's write lock, in ms (retried asynchronously). Default 30000. */
  busyTimeoutMs?: number;
}

/** Usage writes on a worker thread that owns its own SQLite connection. */
export interface UsageWriterThread {
  /**
   * Posts the batch (and the keys' last use, see `writeUsageBatch`) to the thread and resolves
   * once it is committed, with the number of rows written (as `writeUsageBatch`). The calling thread only copies the batch into the message.
   * Rejects when the write fails or the thread died (a new thread is started for the next batch).
   */
  write(events: UsageEventRecord[], options?: { skipStored?: boolean; apiKeysLastUsed?: ReadonlyMap<string, Date> }): Promise<number>;
  /** Waits for the batches already posted, then closes the thread's connection and ends it. */
  close(): Promise<void>;
}

/**
 * Starts the thread that writes usage batches to an embedded SQLite database (`writeUsageBatch`
 * with the events and their daily rollups in one transaction). SQLite runs synchronously in the
 * thread that calls it: on the gateway's own thread every batch's inserts, and the fsync of its
 * commit, would hold every request for their duration. The thread is started lazily and keeps the
 * process alive only while a write is pending. Not for `:memory:` databases (a second connection
 * would see another database) nor PostgreSQL (network I/O, already off the event loop).
 */
export function openUsageWriterThread(options: UsageWriterThreadOptions): UsageWriterThread {
  const workerData: UsageWriterWorkerData = { url: options.url, busyTimeoutMs: options.busyTimeoutMs ?? 30_000 };
  const pending = new Map<number, { resolve(written: number): void; reject(error: Error): void }>();
  let worker: Worker | null = null;
  let nextId = 1;
  let closing: Promise<void> | null = null;

  const failPending = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const started = new Worker(new URL("./usage-writer-worker.js", import.meta.url), { workerData });
    started.unref();
    started.on("message", (reply: UsageWriterReply) => {
      const waiter = pending.get(reply.id);
      if (waiter === undefined) return;
      pending.delete(reply.id);
      if (pending.size === 0) started.unref();
      if ("error" in reply) waiter.reject(Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code }));
      else waiter.resolve(reply.written);
    });
    started.on("error", (error) => {
      if (worker === started) worker = null;
      failPending(error);
    });
    started.on("exit", (code) => {
      if (worker === started) worker = null;
      failPending(new Error(`The usage writer thread exited (code ${code}).`));
    });
    return started;
  };

  const send = (request: UsageWriterRequestBody, thread: Worker): Promise<number> =>
    new Promise<number>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      // Referenced while a write is pending: a draining shutdown must not end before the commit.
      thread.ref();
      thread.postMessage({ ...request, id } as UsageWriterRequest);
    });

  return {
    write(events, writeOptions = {}) {
      if (closing !== null) return Promise.reject(new Error("The usage writer thread is closed."));
      if (events.length === 0 && (writeOptions.apiKeysLastUsed === undefined || writeOptions.apiKeysLastUsed.size === 0)) return Promise.resolve(0);
      worker ??= start();
      return send({ kind: "write", events, skipStored: writeOptions.skipStored ?? false, apiKeysLastUsed: writeOptions.apiKeysLastUsed }, worker);
    },
    close() {
      closing ??= (async () => {
        const thread = worker;
        if (thread === null) return;
        await send({ kind: "close" }, thread).catch(() => undefined);
        worker = null;
        await thread.terminate();
      })();
      return closing;
    },
  };
}
