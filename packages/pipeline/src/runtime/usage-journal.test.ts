import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UsageEventRecord } from "@gateway/contracts";
import { openUsageJournal } from "./usage-journal.js";

function event(requestId: string, overrides: Partial<UsageEventRecord> = {}): UsageEventRecord {
  return {
    requestId,
    traceId: null,
    occurredAt: new Date("2026-11-24T10:00:00.123Z"),
    organizationId: "org_1",
    projectId: "prj_1",
    apiKeyId: "key_1",
    userId: null,
    endpoint: "chat_completions",
    requestedModel: "fast",
    routeId: null,
    provider: "demo",
    model: "echo",
    status: 200,
    errorCode: null,
    inputTokens: 12,
    outputTokens: 3,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 42,
    budgetOutcome: null,
    latencyMs: 5,
    timeToFirstByteMs: null,
    clientLabel: null,
    sessionId: null,
    guardrailFlags: ["pii"],
    content: { request: { messages: [{ role: "user", content: "hi" }] } },
    ...overrides,
  };
}

const directories: string[] = [];
function freshDirectory(): string {
  const directory = mkdtempSync(path.join(tmpdir(), "usage-journal-"));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const segments = (directory: string) => readdirSync(directory).filter((name) => name.endsWith(".jsonl"));
/** A journal whose timer never fires during a test (a process that is killed never closes its journal). */
const openIdle = (directory: string) => openUsageJournal({ directory, syncIntervalMs: 3_600_000, createId: idSequence() });
function idSequence(): () => string {
  let next = 0;
  return () => `id-${++next}`;
}

describe("openUsageJournal", () => {
  it("gives every appended event an id and hands the events of a process that never closed its journal to the next one", () => {
    const directory = freshDirectory();
    const killed = openIdle(directory);
    const events = [event("req_1"), event("req_2", { id: "kept" }), event("req_3")];
    for (const appended of events) killed.append(appended);
    expect(events.map((appended) => appended.id)).toEqual(["id-1", "kept", "id-2"]);
    expect(killed.pending).toBe(3);

    // No close(): the lines are in the file as soon as append() returns.
    const next = openIdle(directory);
    expect(next.recovered).toEqual(events);
    expect(next.recovered[0]!.occurredAt).toBeInstanceOf(Date);
    expect(next.pending).toBe(3);
  });

  it("deletes a recovered segment once its events are acknowledged, and its own once closed with everything acknowledged", async () => {
    const directory = freshDirectory();
    const killed = openIdle(directory);
    killed.append(event("req_1"));
    const next = openIdle(directory);
    next.acknowledge(next.recovered);
    expect(next.pending).toBe(0);
    // Only the new process's own (empty) segment is left.
    expect(segments(directory)).toHaveLength(1);

    const written = event("req_2");
    next.append(written);
    next.acknowledge([written]);
    await next.close();
    expect(segments(directory)).toEqual([]);
    expect(openIdle(directory).recovered).toEqual([]);
  });

  it("keeps unacknowledged events across a clean close (for example while the database is down)", async () => {
    const directory = freshDirectory();
    const journal = openIdle(directory);
    const written = event("req_written");
    const unwritten = event("req_unwritten");
    journal.append(written);
    journal.append(unwritten);
    journal.acknowledge([written]);
    await journal.close();
    expect(openIdle(directory).recovered.map((recovered) => recovered.requestId)).toEqual(["req_written", "req_unwritten"]);
  });

  it("starts new segments and deletes each sealed one once all of its events are acknowledged", async () => {
    const directory = freshDirectory();
    const journal = openUsageJournal({ directory, syncIntervalMs: 3_600_000, maxSegmentEvents: 2 });
    const events = Array.from({ length: 5 }, (_, index) => event(`req_${index}`));
    for (const appended of events) journal.append(appended);
    expect(segments(directory)).toHaveLength(3);
    journal.acknowledge(events.slice(0, 3));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the sealed segments are flushed and closed in the background
    // The first segment (req_0, req_1) is gone; the second (req_2, req_3) waits for req_3.
    expect(segments(directory)).toHaveLength(2);
    await journal.close();
    // A segment is kept or deleted whole: req_2 comes back too (the replay skips ids already stored).
    expect(openIdle(directory).recovered.map((recovered) => recovered.requestId)).toEqual(["req_2", "req_3", "req_4"]);
  });

  it("replaces a segment whose events are all acknowledged on its next sync, so the journal does not grow while the database keeps up", async () => {
    const directory = freshDirectory();
    const journal = openUsageJournal({ directory, syncIntervalMs: 10 });
    const written = event("req_1");
    journal.append(written);
    const [first] = segments(directory);
    journal.acknowledge([written]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(segments(directory)).not.toContain(first);
    await journal.close();
    expect(segments(directory)).toEqual([]);
  });

  it("replays the last line of an event appended again (it changed after it was first recorded), and one acknowledgement clears both", async () => {
    const directory = freshDirectory();
    const killed = openUsageJournal({ directory, syncIntervalMs: 3_600_000, maxSegmentEvents: 1 });
    const first = event("req_1", { budgetOutcome: "reserved" });
    killed.append(first);
    const changed = { ...first, budgetOutcome: "soft_threshold" };
    killed.append(changed);
    expect(killed.pending).toBe(1);
    const next = openIdle(directory);
    expect(next.recovered).toEqual([changed]);
    next.acknowledge([changed]);
    await next.close();
    expect(segments(directory)).toEqual([]);
  });

  it("skips and reports a torn last line (a write cut by a machine crash), recovering the rest", () => {
    const directory = freshDirectory();
    const killed = openIdle(directory);
    killed.append(event("req_1"));
    const [segment] = segments(directory);
    appendFileSync(path.join(directory, segment!), '{"id":"id-9","requestId":"req_torn","occurredAt":"2026-');
    const errors: unknown[] = [];
    const next = openUsageJournal({ directory, syncIntervalMs: 3_600_000, onError: (error) => errors.push(error) });
    expect(next.recovered.map((recovered) => recovered.requestId)).toEqual(["req_1"]);
    expect(String(errors[0])).toMatch(/unreadable line \(2\)/);
  });

  it("leaves the segments of a process that is still running alone (instances sharing a data directory)", () => {
    const directory = freshDirectory();
    const live = `usage-${process.ppid}-1-1.jsonl`;
    writeFileSync(path.join(directory, live), `${JSON.stringify({ ...event("req_other"), id: "other" })}\n`);
    const journal = openIdle(directory);
    expect(journal.recovered).toEqual([]);
    expect(segments(directory)).toContain(live);
  });
});
