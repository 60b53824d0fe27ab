import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, listDailyUsage, listUsageSeries, sumUsageEvents, usageLatencyBucketBoundsMs, writeUsageBatch, type Database } from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

describe.each(databaseTargets)("usage series and totals on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let organizationId: string;
  let otherOrganizationId: string;

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    organizationId = (await createOrganization(db, { name: "series", slug: `series-${randomBytes(4).toString("hex")}` })).id;
    otherOrganizationId = (await createOrganization(db, { name: "other", slug: `other-${randomBytes(4).toString("hex")}` })).id;
    const base = { organizationId, projectId: "project-a", apiKeyId: "key-a" };
    await writeUsageBatch(db, [
      usageEvent({ ...base, occurredAt: new Date("2026-03-01T10:05:00Z"), latencyMs: 40, timeToFirstByteMs: 10, clientLabel: "cli/1.0", costMicros: 100 }),
      usageEvent({ ...base, occurredAt: new Date("2026-03-01T10:59:59.999Z"), latencyMs: 900, timeToFirstByteMs: null, clientLabel: "cli/1.0", costMicros: 200 }),
      usageEvent({ ...base, occurredAt: new Date("2026-03-01T10:30:00Z"), latencyMs: 120_000, status: 502, errorCode: "upstream_error", clientLabel: null, provider: null, model: null, requestedModel: "fast", costMicros: 0 }),
      usageEvent({ organizationId, projectId: "project-b", apiKeyId: "key-b", occurredAt: new Date("2026-03-01T11:00:00Z"), latencyMs: 60, clientLabel: "web", costMicros: 50 }),
      usageEvent({ ...base, occurredAt: new Date("2026-03-02T00:00:00Z"), latencyMs: 10, clientLabel: "cli/1.0", costMicros: 7 }),
      // Another organization and a time outside the range never count.
      usageEvent({ organizationId: otherOrganizationId, occurredAt: new Date("2026-03-01T10:10:00Z") }),
      usageEvent({ ...base, occurredAt: new Date("2026-03-03T00:00:00Z") }),
    ]);
  });
  afterAll(async () => {
    if (target.skip) return;
    await db.close();
    await fresh.cleanup();
  });

  const range = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-03T00:00:00Z") };

  it.skipIf(target.skip)("counts a range that starts and ends inside an hour exactly: whole hours from the hourly rollups, the partial ones from the events", async () => {
    const partial = { from: new Date("2026-03-01T10:30:00Z"), to: new Date("2026-03-02T00:30:00Z") };
    const hours = await listUsageSeries(db, { organizationId, ...partial, interval: "hour", groupBy: "none" });
    expect(hours.map((row) => [row.bucket, row.requestCount, row.errorCount, row.latencyMsTotal, row.latencyMsMax, row.costMicros])).toEqual([
      ["2026-03-01T10", 2, 1, 120_900, 120_000, 200],
      ["2026-03-01T11", 1, 0, 60, 60, 50],
      ["2026-03-02T00", 1, 0, 10, 10, 7],
    ]);
    const days = await listUsageSeries(db, { organizationId, ...partial, interval: "day", groupBy: "project" });
    expect(days.map((row) => [row.bucket, row.key, row.requestCount, row.latencyHistogram.reduce((sum, count) => sum + count, 0)])).toEqual([
      ["2026-03-01", "project-a", 2, 2],
      ["2026-03-01", "project-b", 1, 1],
      ["2026-03-02", "project-a", 1, 1],
    ]);
    // Inside one hour: no whole hour, events only.
    const inside = await listUsageSeries(db, { organizationId, from: new Date("2026-03-01T10:00:00Z"), to: new Date("2026-03-01T10:30:00Z"), interval: "hour", groupBy: "none" });
    expect(inside.map((row) => [row.bucket, row.requestCount, row.latencyMsTotal])).toEqual([["2026-03-01T10", 1, 40]]);
  });

  it.skipIf(target.skip)("groups calls per UTC hour and client label, with errors, tokens, cost and latency", async () => {
    const rows = await listUsageSeries(db, { organizationId, ...range, interval: "hour", groupBy: "client_label" });
    expect(rows.map((row) => [row.bucket, row.key, row.requestCount, row.errorCount, row.costMicros])).toEqual([
      ["2026-03-01T10", "", 1, 1, 0],
      ["2026-03-01T10", "cli/1.0", 2, 0, 300],
      ["2026-03-01T11", "web", 1, 0, 50],
      ["2026-03-02T00", "cli/1.0", 1, 0, 7],
    ]);
    const cli = rows[1]!;
    expect(cli).toMatchObject({ latencyMsTotal: 940, latencyMsMax: 900, timeToFirstByteMsTotal: 10, timeToFirstByteCount: 1, inputTokens: 20, outputTokens: 10 });
    // 40 ms falls in the 50 ms bucket, 900 ms in the 1000 ms one.
    expect(cli.latencyHistogram).toHaveLength(usageLatencyBucketBoundsMs.length + 1);
    expect(cli.latencyHistogram[usageLatencyBucketBoundsMs.indexOf(50)]).toBe(1);
    expect(cli.latencyHistogram[usageLatencyBucketBoundsMs.indexOf(1000)]).toBe(1);
    expect(cli.latencyHistogram.reduce((sum, count) => sum + count, 0)).toBe(2);
    // Slower than the last bound: the overflow bucket.
    expect(rows[0]!.latencyHistogram.at(-1)).toBe(1);
  });

  it.skipIf(target.skip)("groups per day and model (the rollups' model key), filtered by project", async () => {
    const rows = await listUsageSeries(db, { organizationId, ...range, interval: "day", groupBy: "model", projectId: "project-a" });
    expect(rows.map((row) => [row.bucket, row.key, row.requestCount])).toEqual([
      ["2026-03-01", "demo/demo/echo", 2],
      ["2026-03-01", "fast", 1],
      ["2026-03-02", "demo/demo/echo", 1],
    ]);
    const all = await listUsageSeries(db, { organizationId, ...range, interval: "day", groupBy: "none" });
    expect(all.map((row) => [row.bucket, row.key, row.requestCount])).toEqual([
      ["2026-03-01", "", 4],
      ["2026-03-02", "", 1],
    ]);
  });

  it.skipIf(target.skip)("keeps an organization rollup per hour and model equal to the sums of its recorded calls, and a whole organization's series (read from it) agrees with the per-key one", async () => {
    const organization = (await createOrganization(db, { name: "rollup", slug: `rollup-${randomBytes(4).toString("hex")}` })).id;
    const at = (iso: string) => new Date(iso);
    const calls = [
      usageEvent({ organizationId: organization, projectId: "p1", apiKeyId: "k1", occurredAt: at("2026-04-01T09:10:00Z"), latencyMs: 30, costMicros: 10, clientLabel: "cli" }),
      usageEvent({ organizationId: organization, projectId: "p2", apiKeyId: "k2", occurredAt: at("2026-04-01T09:20:00Z"), latencyMs: 2500, costMicros: 20, clientLabel: "web", status: 500, errorCode: "upstream_error" }),
      usageEvent({ organizationId: organization, projectId: "p1", apiKeyId: "k1", occurredAt: at("2026-04-01T09:40:00Z"), provider: "other", model: "big", latencyMs: 700, costMicros: 40, timeToFirstByteMs: null }),
      usageEvent({ organizationId: organization, projectId: "p1", apiKeyId: "k3", occurredAt: at("2026-04-01T10:00:00Z"), latencyMs: 90, costMicros: 80 }),
    ];
    // Two batches, the second adding to rows the first created (the upsert path).
    await writeUsageBatch(db, calls.slice(0, 2));
    await writeUsageBatch(db, [...calls.slice(2), usageEvent({ organizationId: organization, projectId: "p3", apiKeyId: "k4", occurredAt: at("2026-04-01T09:59:59.999Z"), latencyMs: 5, costMicros: 1 })]);

    const events = await db.prisma.usageEvent.findMany({ where: { organizationId: organization } });
    const expected = new Map<string, { requests: number; errors: number; cost: number; latency: number; latencyMax: number; inputTokens: number; ttfbCount: number }>();
    for (const event of events) {
      const key = `${event.occurredAt.toISOString().slice(0, 13)}|${event.provider}/${event.model}`;
      const sums = expected.get(key) ?? { requests: 0, errors: 0, cost: 0, latency: 0, latencyMax: 0, inputTokens: 0, ttfbCount: 0 };
      sums.requests += 1;
      sums.errors += event.status >= 400 ? 1 : 0;
      sums.cost += Number(event.costMicros);
      sums.latency += event.latencyMs;
      sums.latencyMax = Math.max(sums.latencyMax, event.latencyMs);
      sums.inputTokens += event.inputTokens;
      sums.ttfbCount += event.timeToFirstByteMs === null ? 0 : 1;
      expected.set(key, sums);
    }
    const rollups = await db.prisma.usageOrganizationHourlyRollup.findMany({ where: { organizationId: organization } });
    const stored = new Map(
      rollups.map((row) => [
        `${row.hour.toISOString().slice(0, 13)}|${row.model}`,
        {
          requests: Number(row.requestCount), errors: Number(row.errorCount), cost: Number(row.costMicros), latency: Number(row.latencyMsSum),
          latencyMax: Number(row.latencyMsMax), inputTokens: Number(row.inputTokens), ttfbCount: Number(row.timeToFirstByteCount),
        },
      ]),
    );
    expect(stored).toEqual(expected);
    expect([...stored.keys()].sort()).toEqual(["2026-04-01T09|demo/demo/echo", "2026-04-01T09|other/big", "2026-04-01T10|demo/demo/echo"]);

    // The organization's series (one and per model) add up to the same calls as the per-key series.
    const range = { organizationId: organization, from: at("2026-04-01T00:00:00Z"), to: at("2026-04-02T00:00:00Z"), interval: "hour" as const };
    const perModel = await listUsageSeries(db, { ...range, groupBy: "model" });
    expect(perModel.map((row) => [row.bucket, row.key, row.requestCount, row.errorCount, row.costMicros, row.latencyMsMax])).toEqual([
      ["2026-04-01T09", "demo/demo/echo", 3, 1, 31, 2500],
      ["2026-04-01T09", "other/big", 1, 0, 40, 700],
      ["2026-04-01T10", "demo/demo/echo", 1, 0, 80, 90],
    ]);
    const perKey = await listUsageSeries(db, { ...range, groupBy: "api_key" });
    const one = await listUsageSeries(db, { ...range, interval: "day", groupBy: "none" });
    expect(one.map((row) => [row.bucket, row.requestCount, row.costMicros, row.latencyHistogram.reduce((sum, count) => sum + count, 0)])).toEqual([
      ["2026-04-01", perKey.reduce((sum, row) => sum + row.requestCount, 0), perKey.reduce((sum, row) => sum + row.costMicros, 0), 5],
    ]);
    expect(one[0]!.requestCount).toBe(events.length);
  });

  it.skipIf(target.skip)("answers daily totals per API key from the daily rollups, equal to the sums of the recorded calls of each day and key", async () => {
    const perKey = await listDailyUsage(db, { organizationId, fromDay: "2026-03-01", toDay: "2026-03-02", groupBy: ["key"] });
    expect(perKey.map((row) => [row.day, row.apiKeyId, row.projectId, row.model])).toEqual([
      ["2026-03-01", "key-a", null, null],
      ["2026-03-01", "key-b", null, null],
      ["2026-03-02", "key-a", null, null],
    ]);
    for (const row of perKey) {
      const from = new Date(`${row.day}T00:00:00Z`);
      const raw = await sumUsageEvents(db, { organizationId, from, to: new Date(from.getTime() + 86_400_000), apiKeyId: row.apiKeyId! });
      expect([row.requestCount, row.errorCount, row.costMicros]).toEqual([raw.requestCount, raw.errorCount, raw.costMicros]);
    }
    // Filters narrow the rows; the other organization's call never counts.
    const oneKey = await listDailyUsage(db, { organizationId, apiKeyId: "key-b", groupBy: ["project", "model"] });
    expect(oneKey).toEqual([
      expect.objectContaining({ day: "2026-03-01", projectId: "project-b", apiKeyId: null, requestCount: 1, costMicros: 50 }),
    ]);
  });

  it.skipIf(target.skip)("sums the events of a scope since a time", async () => {
    expect(await sumUsageEvents(db, { organizationId, from: new Date("2026-03-01T10:30:00Z"), to: new Date("2026-03-02T00:00:00Z"), apiKeyId: "key-a" })).toEqual({
      requestCount: 2,
      errorCount: 1,
      tokens: 36,
      costMicros: 200,
    });
    expect(await sumUsageEvents(db, { organizationId, from: new Date("2026-03-01T00:00:00Z"), projectId: "project-b" })).toMatchObject({ requestCount: 1, costMicros: 50 });
    expect(await sumUsageEvents(db, { organizationId, from: new Date("2027-01-01T00:00:00Z") })).toEqual({ requestCount: 0, errorCount: 0, tokens: 0, costMicros: 0 });
  });
});
