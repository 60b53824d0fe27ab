import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DataPlaneDatabase, createApiKey, createOrganization, createProject, openDataPlaneDatabase, timeOrderedId, writeUsageBatch } from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

/** Stored rows per request id, and the requests counted in the organization's daily rollups. */
async function storedCounts(db: Database, organizationId: string): Promise<{ rows: Record<string, number>; rolledUp: number }> {
  const rows = await db.prisma.usageEvent.groupBy({ by: ["requestId"], where: { organizationId }, _count: { _all: true } });
  const rollups = await db.prisma.usageDailyRollup.aggregate({ where: { organizationId }, _sum: { requestCount: true } });
  return { rows: Object.fromEntries(rows.map((row) => [row.requestId, row._count._all])), rolledUp: Number(rollups._sum.requestCount ?? 0) };
}

describe.each(databaseTargets)("usage events with their own ids (journal replay) on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let dataPlane: DataPlaneDatabase;
  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    dataPlane = openDataPlaneDatabase({ url: fresh.url, postgresqlPoolSize: 2 });
  });
  afterAll(async () => {
    if (target.skip) return;
    await dataPlane.close();
    await db.close();
    await fresh.cleanup();
  });

  it.skipIf(target.skip)("keeps the given ids; a replay with skipStored writes and rolls up only the events not stored yet", async () => {
    const org = await createOrganization(db, { name: "Replay", slug: `replay-${timeOrderedId().slice(-8)}` });
    const events = Array.from({ length: 5 }, (_, index) => usageEvent({ id: timeOrderedId(), requestId: `req_${index}`, organizationId: org.id }));
    expect(await writeUsageBatch(dataPlane, events.slice(0, 3))).toBe(3);
    const stored = await db.prisma.usageEvent.findMany({ where: { organizationId: org.id }, orderBy: { id: "asc" } });
    expect(stored.map((row) => row.id)).toEqual(events.slice(0, 3).map((event) => event.id));

    // The journal still held all five (the process was killed after the first batch was written).
    expect(await writeUsageBatch(dataPlane, events, { skipStored: true })).toBe(2);
    expect(await storedCounts(db, org.id)).toEqual({ rows: { req_0: 1, req_1: 1, req_2: 1, req_3: 1, req_4: 1 }, rolledUp: 5 });
    expect(await writeUsageBatch(dataPlane, events, { skipStored: true })).toBe(0);
    expect(await storedCounts(db, org.id)).toEqual({ rows: { req_0: 1, req_1: 1, req_2: 1, req_3: 1, req_4: 1 }, rolledUp: 5 });
  });

  it.skipIf(target.skip)("never stores an event twice, even when a batch is written again without skipStored", async () => {
    const org = await createOrganization(db, { name: "Twice", slug: `twice-${timeOrderedId().slice(-8)}` });
    const event = usageEvent({ id: timeOrderedId(), requestId: "req_twice", organizationId: org.id });
    await writeUsageBatch(dataPlane, [event]);
    await writeUsageBatch(dataPlane, [event]);
    expect((await storedCounts(db, org.id)).rows).toEqual({ req_twice: 1 });
  });

  it.skipIf(target.skip)("stores a batch of several INSERT statements (a short last one included) with each event's own values, every event rolled up once", async () => {
    const org = await createOrganization(db, { name: "Chunks", slug: `chunks-${timeOrderedId().slice(-8)}` });
    const events = Array.from({ length: 47 }, (_, index) =>
      usageEvent({ requestId: `req_chunk_${index}`, organizationId: org.id, inputTokens: index, status: index % 5 === 0 ? 502 : 200, sessionId: `session-${index}` }));
    expect(await writeUsageBatch(dataPlane, events)).toBe(47);
    const stored = await db.prisma.usageEvent.findMany({ where: { organizationId: org.id }, select: { requestId: true, inputTokens: true, status: true, sessionId: true } });
    const expected = events.map((event) => ({ requestId: event.requestId, inputTokens: event.inputTokens, status: event.status, sessionId: event.sessionId }));
    expect(stored.map((row) => ({ ...row, inputTokens: Number(row.inputTokens) })).sort((a, b) => a.inputTokens - b.inputTokens)).toEqual(expected);
    expect((await storedCounts(db, org.id)).rolledUp).toBe(47);
  });
});

const distEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/data-plane.js");

describe("openUsageWriterThread (built package: the thread runs dist/usage-writer-worker.js)", () => {
  it.skipIf(!existsSync(distEntry) || databaseTargets[0]!.skip)("writes batches on its own SQLite connection, skips stored ids on request, and reports failures", async () => {
    const { openUsageWriterThread } = (await import(pathToFileURL(distEntry).href)) as typeof import("../src/data-plane.js");
    const fresh = await databaseTargets.find((candidate) => candidate.provider === "sqlite")!.fresh();
    const db = fresh.open();
    try {
      await db.migrate();
      const org = await createOrganization(db, { name: "Thread", slug: "thread" });
      const thread = openUsageWriterThread({ url: fresh.url });
      const events = Array.from({ length: 120 }, (_, index) => usageEvent({ id: timeOrderedId(), requestId: `req_${index}`, organizationId: org.id }));
      expect(await thread.write(events.slice(0, 100))).toBe(100);
      expect(await thread.write(events, { skipStored: true })).toBe(20);
      expect(await storedCounts(db, org.id)).toMatchObject({ rolledUp: 120 });
      // The keys' last use goes with a batch, and alone (the last ones at shutdown).
      const project = await createProject(db, { organizationId: org.id, name: "p" });
      const { apiKey } = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "k" });
      const usedAt = new Date("2026-11-22T10:00:00.000Z");
      expect(await thread.write([], { apiKeysLastUsed: new Map([[apiKey.id, usedAt]]) })).toBe(0);
      expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt).toEqual(usedAt);
      // A failed write rejects with the database's message (the queue retries it); the thread stays usable.
      await expect(thread.write([usageEvent({ organizationId: org.id, occurredAt: new Date(Number.NaN) })])).rejects.toThrow(/Invalid time value/);
      expect(await thread.write([usageEvent({ requestId: "req_after", organizationId: org.id })])).toBe(1);
      await thread.close();
      await expect(thread.write([usageEvent()])).rejects.toThrow(/closed/);
    } finally {
      await db.close();
      await fresh.cleanup();
    }
  });
});
