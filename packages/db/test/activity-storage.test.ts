import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOrganization,
  createProject,
  createSecretBox,
  ensureUsageEventPartitions,
  listActivitySessions,
  listUsageEventPartitions,
  parseStoredUsageAttempts,
  readUsageEventContent,
  sweepUsageRetention,
  writeUsageBatch,
  type Database,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });
const DAY_MS = 86_400_000;

describe.each(databaseTargets)("activity storage on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let organizationId: string;
  let projectId: string;

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    organizationId = (await createOrganization(db, { name: "activity", slug: `activity-${randomBytes(4).toString("hex")}` })).id;
    projectId = (await createProject(db, { organizationId, name: "captures", captureContent: true })).id;
  });
  afterAll(async () => {
    if (target.skip) return;
    await db.close();
    await fresh.cleanup();
  });

  it.skipIf(target.skip)("records attribution, metadata and each attempt with the call", async () => {
    const event = usageEvent({
      organizationId,
      projectId,
      teamId: "team_1",
      connectionId: "conn_b",
      clientVersion: "1.4.2",
      metadata: { customer: "acme", env: "prod" },
      attempts: [
        { connectionId: "conn_a", provider: "primary", model: "gpt-4o", status: 503, latencyMs: 120, errorCode: "upstream_error", outcome: "fell_back", reason: "upstream_5xx" },
        { connectionId: "conn_b", provider: "backup", model: "gpt-4o", status: 200, latencyMs: 300, errorCode: null, outcome: "served", reason: null },
      ],
      gatewayOverheadMs: 3,
      rateLimitOutcome: null,
      guardrailFlags: ["pii_redacted"],
      errorMessage: null,
    });
    await writeUsageBatch(db, [event]);
    const row = await db.prisma.usageEvent.findFirstOrThrow({ where: { requestId: event.requestId } });
    expect(row).toMatchObject({ teamId: "team_1", connectionId: "conn_b", clientVersion: "1.4.2", metadata: { customer: "acme", env: "prod" }, attemptCount: 2, gatewayOverheadMs: 3, guardrailFlagged: true, hasContent: false });
    expect(parseStoredUsageAttempts(row.attempts)).toEqual([
      { connection_id: "conn_a", provider: "primary", model: "gpt-4o", status: 503, latency_ms: 120, error_code: "upstream_error", outcome: "fell_back", reason: "upstream_5xx" },
      { connection_id: "conn_b", provider: "backup", model: "gpt-4o", status: 200, latency_ms: 300, error_code: null, outcome: "served", reason: null },
    ]);
  });

  it.skipIf(target.skip)("stores captured content apart from the usage row, compressed and encrypted, and reads it back", async () => {
    const secret = "my card is 4242 and the moon is blue";
    const event = usageEvent({ organizationId, projectId, occurredAt: new Date(), content: { request: { messages: [{ role: "user", content: secret }] }, response: { answer: "ok" } } });
    await writeUsageBatch(db, [event], { secretBox });
    const row = await db.prisma.usageEvent.findFirstOrThrow({ where: { requestId: event.requestId } });
    expect(row.hasContent).toBe(true);
    expect(row.content).toBeNull();
    const stored = await db.queryStatement({ sql: `SELECT * FROM "usage_event_contents" WHERE "request_id" = ${target.provider === "sqlite" ? "?" : "$1"}`, args: [event.requestId] });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored[0])).not.toContain("moon is blue");
    expect(JSON.stringify(stored[0])).not.toContain("messages");
    const content = await readUsageEventContent(db, secretBox, { organizationId, requestId: event.requestId });
    expect(content).toMatchObject({ request: { messages: [{ role: "user", content: secret }] }, response: { answer: "ok" }, truncated: false });
    expect(content!.capturedAt.getTime()).toBe(event.occurredAt.getTime());
    // Another organization never reads it, and another key cannot decrypt it.
    expect(await readUsageEventContent(db, secretBox, { organizationId: "org_other", requestId: event.requestId })).toBeNull();
    const otherBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });
    await expect(readUsageEventContent(db, otherBox, { organizationId, requestId: event.requestId })).rejects.toThrow(/cannot decrypt/);
  });

  it.skipIf(target.skip)("cuts content at the project's cap and marks it truncated", async () => {
    const long = "é".repeat(5_000);
    const event = usageEvent({ organizationId, projectId, occurredAt: new Date(), content: { request: { prompt: long }, response: { text: "short" } }, contentCapture: { maxBytes: 1_000, retentionDays: 7 } });
    await writeUsageBatch(db, [event], { secretBox });
    const content = await readUsageEventContent(db, secretBox, { organizationId, requestId: event.requestId });
    expect(content!.truncated).toBe(true);
    expect(typeof content!.request).toBe("string");
    expect(Buffer.byteLength(content!.request as string) + Buffer.byteLength(JSON.stringify(content!.response))).toBeLessThanOrEqual(1_000);
    expect(content!.request as string).toMatch(/^\{"prompt":"éé/);
    expect(content!.response).toEqual({ text: "short" });
    const [row] = await db.queryStatement({ sql: `SELECT "original_bytes" FROM "usage_event_contents" WHERE "request_id" = ${target.provider === "sqlite" ? "?" : "$1"}`, args: [event.requestId] });
    expect(Number(row!.original_bytes)).toBe(Buffer.byteLength(JSON.stringify({ prompt: long })) + Buffer.byteLength(JSON.stringify({ text: "short" })));
  });

  it.skipIf(target.skip)("never stores the content of decisions", async () => {
    const event = usageEvent({ organizationId, projectId, endpoint: "decisions", occurredAt: new Date(), content: { request: { question: "pick" }, response: { answer: "a" } } });
    await writeUsageBatch(db, [event], { secretBox });
    expect((await db.prisma.usageEvent.findFirstOrThrow({ where: { requestId: event.requestId } })).hasContent).toBe(false);
    expect(await db.prisma.usageEventContent.count({ where: { requestId: event.requestId } })).toBe(0);
    expect(await readUsageEventContent(db, secretBox, { organizationId, requestId: event.requestId })).toBeNull();
  });

  it.skipIf(target.skip)("keeps events per project's activity retention and content until it expires", async () => {
    const now = new Date("2026-11-28T12:00:00Z");
    const organization = (await createOrganization(db, { name: "retention", slug: `retention-${randomBytes(4).toString("hex")}` })).id;
    const shortProject = (await createProject(db, { organizationId: organization, name: "short" })).id;
    const longProject = (await createProject(db, { organizationId: organization, name: "long" })).id;
    await db.prisma.project.update({ where: { id: shortProject }, data: { activityRetentionDays: 3 } });
    await db.prisma.project.update({ where: { id: longProject }, data: { activityRetentionDays: 40 } });
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
    await writeUsageBatch(db, [
      usageEvent({ organizationId: organization, projectId: shortProject, requestId: "req_short_old", occurredAt: at(5) }),
      usageEvent({ organizationId: organization, projectId: shortProject, requestId: "req_short_new", occurredAt: at(1) }),
      usageEvent({ organizationId: organization, projectId: longProject, requestId: "req_long_kept", occurredAt: at(35) }),
      usageEvent({ organizationId: organization, projectId: longProject, requestId: "req_long_old", occurredAt: at(45) }),
      usageEvent({ organizationId: organization, projectId: longProject, requestId: "req_content_old", occurredAt: at(2), content: { request: { a: 1 }, response: null }, contentCapture: { maxBytes: 1000, retentionDays: 1 } }),
      usageEvent({ organizationId: organization, projectId: longProject, requestId: "req_content_new", occurredAt: at(0.5), content: { request: { a: 2 }, response: null }, contentCapture: { maxBytes: 1000, retentionDays: 1 } }),
    ], { secretBox });
    if (target.provider === "postgresql") await ensureUsageEventPartitions(db, { now });
    const result = await sweepUsageRetention(db, { now, batchSize: 1 });
    const remaining = await db.prisma.usageEvent.findMany({ where: { organizationId: organization }, orderBy: { requestId: "asc" } });
    expect(remaining.map((row) => row.requestId)).toEqual(["req_content_new", "req_content_old", "req_long_kept", "req_short_new"]);
    expect((await db.prisma.usageEventContent.findMany({ where: { organizationId: organization } })).map((row) => row.requestId)).toEqual(["req_content_new"]);
    expect(result.deletedContents).toBe(1);
  });

  it.skipIf(target.skip || target.provider !== "postgresql")("creates day partitions ahead, moves early rows out of the default partition, and drops whole days past the longest retention", async () => {
    const now = new Date("2027-06-15T08:00:00Z");
    const organization = (await createOrganization(db, { name: "partitions", slug: `partitions-${randomBytes(4).toString("hex")}` })).id;
    // Written before its day's partition exists: lands in the default partition.
    await writeUsageBatch(db, [usageEvent({ organizationId: organization, requestId: "req_early", occurredAt: new Date("2027-06-16T09:00:00Z") })]);
    const created = await ensureUsageEventPartitions(db, { now, daysAhead: 2 });
    expect(created).toEqual(["usage_events_p20270614", "usage_events_p20270615", "usage_events_p20270616", "usage_events_p20270617"]);
    expect(await ensureUsageEventPartitions(db, { now, daysAhead: 2 })).toEqual([]);
    const [located] = await db.queryStatement({ sql: `SELECT tableoid::regclass::text AS partition FROM "usage_events" WHERE "request_id" = 'req_early'`, args: [] });
    expect(String(located!.partition)).toMatch(/usage_events_p20270616"?$/);
    await writeUsageBatch(db, [usageEvent({ organizationId: organization, requestId: "req_in_partition", occurredAt: new Date("2027-06-14T10:00:00Z") })]);

    // 90 days later, with 40 days the longest retention (previous test): whole days go.
    const later = new Date(now.getTime() + 90 * DAY_MS);
    const result = await sweepUsageRetention(db, { now: later });
    expect(result.droppedPartitions).toEqual(expect.arrayContaining(["usage_events_p20270614", "usage_events_p20270615", "usage_events_p20270616", "usage_events_p20270617"]));
    expect(await listUsageEventPartitions(db)).not.toContain("usage_events_p20270616");
    expect(await db.prisma.usageEvent.count({ where: { organizationId: organization } })).toBe(0);
  });

  it.skipIf(target.skip)("pages sessions by their newest call even when one session's calls fill many walks of the newest calls", async () => {
    const organization = (await createOrganization(db, { name: "sessions", slug: `sessions-${randomBytes(4).toString("hex")}` })).id;
    const at = (second: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, 0) + second * 1000);
    const call = (sessionId: string, apiKeyId: string, second: number, costMicros = 1) => usageEvent({ organizationId: organization, sessionId, apiKeyId, occurredAt: at(second), costMicros });
    // The 1,500 newest calls are one session's: the sessions after it lie below the first walks.
    const long = Array.from({ length: 1500 }, (_, index) => call("long", "k1", 10_000 + index));
    const older = [
      call("s1", "k1", 900), call("s1", "k1", 100, 5),
      call("shared", "k1", 800), call("shared", "k2", 700), call("shared", "k2", 50),
      call("s2", "k2", 600),
      // s3's newest call is newer than s2's: it comes first.
      call("s3", "k2", 650), call("s3", "k2", 10),
    ];
    for (let start = 0; start < long.length; start += 500) await writeUsageBatch(db, long.slice(start, start + 500));
    await writeUsageBatch(db, older);

    const seen: [string, string | null, number, number][] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const result = await listActivitySessions(db, { organizationId: organization, limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...result.data.map((session): [string, string | null, number, number] => [session.sessionId, session.apiKeyId, session.callCount, session.costMicros]));
      if (result.nextCursor === null) break;
      cursor = result.nextCursor;
    }
    expect(seen).toEqual([
      ["long", "k1", 1500, 1500],
      ["s1", "k1", 2, 6],
      ["shared", "k1", 1, 1],
      ["shared", "k2", 2, 2],
      ["s3", "k2", 2, 2],
      ["s2", "k2", 1, 1],
    ]);
    // Filters narrow the walk and the totals alike.
    const second = await listActivitySessions(db, { organizationId: organization, apiKeyId: "k2", limit: 2 });
    expect(second.data.map((session) => [session.sessionId, session.callCount])).toEqual([["shared", 2], ["s3", 2]]);
  });
});
