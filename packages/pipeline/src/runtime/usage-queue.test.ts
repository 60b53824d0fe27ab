import { describe, expect, it, vi } from "vitest";
import type { UsageEventRecord } from "@gateway/contracts";
import { createUsageQueue } from "./usage-queue.js";

function event(requestId: string): UsageEventRecord {
  return {
    requestId,
    traceId: null,
    occurredAt: new Date(0),
    organizationId: null,
    projectId: null,
    apiKeyId: null,
    userId: null,
    endpoint: "decisions",
    requestedModel: null,
    routeId: null,
    provider: null,
    model: null,
    status: 200,
    errorCode: null,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 0,
    budgetOutcome: null,
    latencyMs: 0,
    timeToFirstByteMs: null,
    clientLabel: null,
    sessionId: null,
    guardrailFlags: [],
    content: null,
  };
}

describe("createUsageQueue", () => {
  it("does not write on enqueue; writes batches of at most maxBatchSize on flush", async () => {
    const batches: string[][] = [];
    const queue = createUsageQueue({
      sink: { write: async (events) => void batches.push(events.map((item) => item.requestId)) },
      maxBatchSize: 3,
      flushIntervalMs: 60_000,
    });
    queue.enqueue(event("a"));
    queue.enqueue(event("b"));
    expect(batches).toEqual([]);
    queue.enqueue(event("c"));
    queue.enqueue(event("d"));
    await queue.flush();
    expect(batches.flat()).toEqual(["a", "b", "c", "d"]);
    expect(batches.every((batch) => batch.length <= 3)).toBe(true);
    await queue.close();
  });

  it("lets other work run between batches when the sink writes synchronously", async () => {
    // An embedded SQLite sink blocks the thread while it writes; a backlog of several batches
    // must not be drained in one go, or every request waits for all of them.
    const timeline: string[] = [];
    const queue = createUsageQueue({
      sink: { write: async (events) => void timeline.push(`batch:${events.map((item) => item.requestId).join("")}`) },
      maxBatchSize: 2,
      flushIntervalMs: 60_000,
    });
    // Enqueue a full batch last so that enqueue itself starts no background flush first.
    for (const id of ["a", "b", "c", "d", "e"]) queue.enqueue(event(id));
    await queue.flush();
    timeline.length = 0;
    for (const id of ["f", "g", "h", "i", "j"]) queue.enqueue(event(id));
    const flushing = queue.flush();
    setImmediate(() => timeline.push("request"));
    await flushing;
    const firstBatch = timeline.findIndex((entry) => entry.startsWith("batch:"));
    const lastBatch = timeline.length - 1 - [...timeline].reverse().findIndex((entry) => entry.startsWith("batch:"));
    const request = timeline.indexOf("request");
    expect(request).toBeGreaterThan(firstBatch);
    expect(request).toBeLessThan(lastBatch);
    await queue.close();
  });

  it("writes on its interval", async () => {
    const written: string[] = [];
    const queue = createUsageQueue({
      sink: { write: async (events) => void written.push(...events.map((item) => item.requestId)) },
      flushIntervalMs: 10,
    });
    queue.enqueue(event("a"));
    await vi.waitFor(() => expect(written).toEqual(["a"]), { timeout: 2000, interval: 5 });
    await queue.close();
  });

  it("retries a failed batch without losing or reordering events", async () => {
    const written: string[] = [];
    let failuresLeft = 2;
    const errors: unknown[] = [];
    const queue = createUsageQueue({
      sink: {
        write: async (events) => {
          if (failuresLeft > 0) {
            failuresLeft -= 1;
            throw new Error("database down");
          }
          written.push(...events.map((item) => item.requestId));
        },
      },
      flushIntervalMs: 5,
      retryDelayMs: 5,
      onError: (error) => errors.push(error),
    });
    queue.enqueue(event("a"));
    queue.enqueue(event("b"));
    await vi.waitFor(() => expect(written).toEqual(["a", "b"]), { timeout: 3000, interval: 5 });
    expect(errors).toHaveLength(2);
    expect(queue.size).toBe(0);
    await queue.close();
  });

  it("drains everything on close, retrying through failures", async () => {
    const written: string[] = [];
    let failuresLeft = 1;
    const queue = createUsageQueue({
      sink: {
        write: async (events) => {
          if (failuresLeft-- > 0) throw new Error("transient");
          written.push(...events.map((item) => item.requestId));
        },
      },
      flushIntervalMs: 60_000,
      retryDelayMs: 5,
      maxBatchSize: 2,
    });
    for (const id of ["a", "b", "c", "d", "e"]) queue.enqueue(event(id));
    await queue.close({ timeoutMs: 5000 });
    expect(written).toEqual(["a", "b", "c", "d", "e"]);
  });
});
