import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, listUsageSeries, sumUsageEvents, usageLatencyBucketBoundsMs, writeUsageBatch, type Database } from "../src/index.js";
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
