import { describe, expect, it } from "vitest";
import type { UsageEventRecord } from "@gateway/contracts";
import { createApiKeyActivity } from "./api-key-activity.js";
import { createUsageQueue } from "./usage-queue.js";

/** A usage event of a key at a time (the fields the activity reads; the rest as any event has them). */
function use(apiKeyId: string | null, at: number): UsageEventRecord {
  return {
    requestId: `req_${apiKeyId}_${at}`, traceId: null, occurredAt: new Date(at), organizationId: "org_1", projectId: "prj_1", apiKeyId, userId: null,
    endpoint: "chat_completions", requestedModel: null, routeId: null, provider: null, model: null, status: 200, errorCode: null,
    inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costMicros: 0, budgetOutcome: null,
    latencyMs: 0, timeToFirstByteMs: null, clientLabel: null, sessionId: null, guardrailFlags: [], content: null,
  };
}

const minute = 60_000;

describe("createApiKeyActivity", () => {
  it("answers a key's latest use at most once per minute of its clock, then its latest use since", () => {
    let clock = 1_000_000;
    const activity = createApiKeyActivity({ now: () => clock });
    expect(activity.take([use("key_a", 10), use("key_a", 30), use("key_b", 20), use(null, 40)])).toEqual(
      new Map([["key_a", new Date(30)], ["key_b", new Date(20)]]),
    );
    // Many calls within the minute: nothing to write.
    for (let second = 1; second < 60; second += 1) {
      clock += 1000 - 1;
      expect(activity.take([use("key_a", clock), use("key_b", clock)]).size).toBe(0);
    }
    const latest = clock;
    clock = 1_000_000 + minute;
    // A minute after the last write: the latest use of the minute, once.
    expect(activity.take([])).toEqual(new Map([["key_a", new Date(latest)], ["key_b", new Date(latest)]]));
    expect(activity.take([]).size).toBe(0);
    // Unused since: nothing more, ever.
    clock += 10 * minute;
    expect(activity.take([]).size).toBe(0);
    // Used again after a quiet spell: written at once.
    expect(activity.take([use("key_b", clock)])).toEqual(new Map([["key_b", new Date(clock)]]));
  });

  it("a failed write's uses are due again at once; takeAll answers what waits for its minute (shutdown)", () => {
    let clock = 0;
    const activity = createApiKeyActivity({ now: () => clock });
    const taken = activity.take([use("key_a", 5)]);
    activity.restore(taken);
    expect(activity.take([])).toEqual(new Map([["key_a", new Date(5)]]));
    clock = 1000;
    expect(activity.take([use("key_a", 900)]).size).toBe(0);
    expect(activity.takeAll()).toEqual(new Map([["key_a", new Date(900)]]));
    expect(activity.takeAll().size).toBe(0);
  });
});

describe("createUsageQueue with an ApiKeyActivity", () => {
  it("writes last_used_at with the usage batches, at most once per key per minute; close writes the rest", async () => {
    let clock = 0;
    const writes: { events: number; lastUsed: [string, number][] }[] = [];
    const queue = createUsageQueue({
      sink: {
        write: async (events, options) =>
          void writes.push({ events: events.length, lastUsed: [...(options?.apiKeysLastUsed ?? new Map())].map(([id, at]) => [id, at.getTime()]) }),
      },
      flushIntervalMs: 60 * minute,
      apiKeyActivity: createApiKeyActivity({ now: () => clock }),
    });
    for (let call = 0; call < 30; call += 1) {
      clock = call * 1000;
      queue.enqueue(use("key_a", clock));
      await queue.flush();
    }
    // 30 batches within one minute: one of them carried the key's last use.
    expect(writes).toHaveLength(30);
    expect(writes.filter((write) => write.lastUsed.length > 0).map((write) => write.lastUsed)).toEqual([[["key_a", 0]]]);
    clock = minute + 1;
    queue.enqueue(use("key_a", clock));
    await queue.flush();
    expect(writes.at(-1)!.lastUsed).toEqual([["key_a", minute + 1]]);
    clock += 1000;
    queue.enqueue(use("key_a", clock));
    await queue.close();
    // Graceful shutdown: the use within the minute is not lost.
    expect(writes.at(-1)).toEqual({ events: 0, lastUsed: [["key_a", clock]] });
  });

  it("a failed batch carries the same last use again when it is retried", async () => {
    let failing = true;
    const carried: [string, number][][] = [];
    const queue = createUsageQueue({
      sink: {
        write: async (_events, options) => {
          carried.push([...(options?.apiKeysLastUsed ?? new Map())].map(([id, at]) => [id, at.getTime()]));
          if (failing) throw new Error("database down");
        },
      },
      flushIntervalMs: 60 * minute,
      retryDelayMs: 1,
      apiKeyActivity: createApiKeyActivity({ now: () => 0 }),
    });
    queue.enqueue(use("key_a", 7));
    await expect(queue.flush()).rejects.toThrow("database down");
    failing = false;
    await queue.flush();
    expect(carried).toEqual([[["key_a", 7]], [["key_a", 7]]]);
    await queue.close();
  });
});
