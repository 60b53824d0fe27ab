import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, iterateActivityCalls, listActivityCalls, writeUsageBatch, type ActivityFilters, type Database } from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

const HOUR_MS = 3_600_000;

// The newest-first reads go through time windows (a day, a week, the rest): pages must come out
// exactly as one ordered read of everything would give them, whichever window a call falls in.
describe.each(databaseTargets)("activity pages across time windows on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let organizationId: string;
  /** Request ids newest first, with their flags. */
  const calls: { requestId: string; flagged: boolean; customer: string }[] = [];

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    organizationId = (await createOrganization(db, { name: "windows", slug: `windows-${randomBytes(4).toString("hex")}` })).id;
    const now = Date.now();
    // Calls an hour to 40 days old (every window), one in the future; two share a time.
    const ages = [-HOUR_MS, HOUR_MS, 5 * HOUR_MS, 5 * HOUR_MS, 23 * HOUR_MS, 25 * HOUR_MS, 3 * 24 * HOUR_MS, 8 * 24 * HOUR_MS + 1, 9 * 24 * HOUR_MS, 20 * 24 * HOUR_MS, 40 * 24 * HOUR_MS];
    const events = ages.map((age, index) =>
      usageEvent({
        organizationId,
        id: `ev${String(ages.length - index).padStart(4, "0")}`,
        occurredAt: new Date(Math.floor((now - age) / 1000) * 1000),
        guardrailFlags: index % 3 === 0 ? ["pii"] : [],
        metadata: { customer: index % 2 === 0 ? "even" : "odd" },
      }),
    );
    await writeUsageBatch(db, events);
    for (const [index, event] of events.entries()) calls.push({ requestId: event.requestId, flagged: index % 3 === 0, customer: index % 2 === 0 ? "even" : "odd" });
  });
  afterAll(async () => {
    if (target.skip) return;
    await db.close();
    await fresh.cleanup();
  });

  async function allPages(filters: ActivityFilters, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listActivityCalls(db, { ...filters, limit, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data.map((call) => call.requestId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return seen;
  }

  it.skipIf(target.skip)("pages every call newest first, with and without sparse filters, as one ordered read would", async () => {
    expect(await allPages({ organizationId }, 2)).toEqual(calls.map((call) => call.requestId));
    expect(await allPages({ organizationId }, 50)).toEqual(calls.map((call) => call.requestId));
    expect(await allPages({ organizationId, guardrailFlagged: true }, 1)).toEqual(calls.filter((call) => call.flagged).map((call) => call.requestId));
    expect(await allPages({ organizationId, guardrailFlagged: false }, 3)).toEqual(calls.filter((call) => !call.flagged).map((call) => call.requestId));
    expect(await allPages({ organizationId, metadata: [{ key: "customer", value: "odd" }] }, 2)).toEqual(calls.filter((call) => call.customer === "odd").map((call) => call.requestId));
    const from = new Date(Date.now() - 10 * 24 * HOUR_MS);
    const to = new Date(Date.now() - 2 * HOUR_MS);
    const inRange = await allPages({ organizationId, from, to }, 2);
    expect(inRange).toEqual(calls.slice(2, 9).map((call) => call.requestId));
  });

  it.skipIf(target.skip)("exports every call in the same order, in pages read ahead", async () => {
    const exported: string[] = [];
    for await (const batch of iterateActivityCalls(db, { organizationId }, { batchSize: 3 })) exported.push(...batch.map((call) => call.requestId));
    expect(exported).toEqual(calls.map((call) => call.requestId));
  });
});
