import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DataPlaneDatabase,
  type Database,
  createApiKey,
  createOrganization,
  createProject,
  createTeam,
  listAdmittedTokenBuckets,
  openDataPlaneDatabase,
  sumAdmittedRateLimitUsage,
  sumRecordedBudgetSpend,
  writeUsageBatch,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

describe.each(databaseTargets)("recorded budget spend and admitted rate-limit usage (raw SQL) on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let dataPlane: DataPlaneDatabase;
  let organizationId: string;
  let projectId: string;
  let otherProjectId: string;
  let keyId: string;
  let teamKeyId: string;
  let teamId: string;

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    dataPlane = openDataPlaneDatabase({ url: fresh.url, postgresqlPoolSize: 2 });
    organizationId = (await createOrganization(db, { name: "Sums", slug: `sums-${randomBytes(3).toString("hex")}` })).id;
    projectId = (await createProject(db, { organizationId, name: "main" })).id;
    otherProjectId = (await createProject(db, { organizationId, name: "other" })).id;
    teamId = (await createTeam(db, { organizationId, name: "team", defaultRole: "member" })).id;
    keyId = (await createApiKey(db, { organizationId, projectId, name: "plain" })).apiKey.id;
    teamKeyId = (await createApiKey(db, { organizationId, projectId: otherProjectId, name: "team key", teamId })).apiKey.id;
    const mine = { organizationId, projectId, apiKeyId: keyId };
    await writeUsageBatch(db, [
      usageEvent({ ...mine, occurredAt: new Date("2026-03-18T11:59:30Z"), costMicros: 1_000 }),
      usageEvent({ ...mine, occurredAt: new Date("2026-03-16T08:00:00Z"), costMicros: 2_000 }),
      usageEvent({ ...mine, occurredAt: new Date("2026-03-02T08:00:00Z"), costMicros: 4_000 }),
      usageEvent({ ...mine, occurredAt: new Date("2026-02-27T08:00:00Z"), costMicros: 8_000 }),
      usageEvent({ organizationId, projectId: otherProjectId, apiKeyId: teamKeyId, occurredAt: new Date("2026-03-18T11:59:50Z"), costMicros: 16_000 }),
      // Refused before admission: no cost, no provider; and an upstream failure after admission.
      usageEvent({ ...mine, occurredAt: new Date("2026-03-18T11:59:40Z"), status: 429, errorCode: "gateway_rate_limit_exceeded", provider: null, costMicros: 0 }),
      usageEvent({ ...mine, occurredAt: new Date("2026-03-18T11:59:45Z"), status: 502, errorCode: "upstream_error", provider: "demo", costMicros: 0 }),
    ]);
  });
  afterAll(async () => {
    if (target.skip) return;
    await dataPlane.close();
    await db.close();
    await fresh.cleanup();
  });

  it.skipIf(target.skip)("sums each budget's period in its scope, minus a reset baseline, in one call for many budgets and the same for one", async () => {
    const budgets = [
      { id: "day", scope: "project" as const, scopeId: projectId, fromDay: "2026-03-18", baselineMicros: 0 },
      { id: "week", scope: "key" as const, scopeId: keyId, fromDay: "2026-03-16", baselineMicros: 0 },
      { id: "month", scope: "organization" as const, scopeId: organizationId, fromDay: "2026-03-01", baselineMicros: 0 },
      { id: "organization-total", scope: "organization" as const, scopeId: organizationId, fromDay: null, baselineMicros: 0 },
      { id: "total", scope: "project" as const, scopeId: projectId, fromDay: null, baselineMicros: 0 },
      { id: "team", scope: "team" as const, scopeId: teamId, fromDay: "2026-03-01", baselineMicros: 0 },
      { id: "reset", scope: "project" as const, scopeId: projectId, fromDay: "2026-03-01", baselineMicros: 6_000 },
      { id: "over-reset", scope: "project" as const, scopeId: projectId, fromDay: "2026-03-18", baselineMicros: 9_000 },
    ];
    const all = await sumRecordedBudgetSpend(dataPlane, { organizationId, budgets });
    expect(Object.fromEntries(all)).toEqual({ day: 1_000, week: 3_000, month: 23_000, "organization-total": 31_000, total: 15_000, team: 16_000, reset: 1_000, "over-reset": 0 });
    for (const budget of budgets) {
      const one = await sumRecordedBudgetSpend(dataPlane, { organizationId, budgets: [budget] });
      expect(one.get(budget.id), budget.id).toBe(all.get(budget.id));
    }
  });

  it.skipIf(target.skip)("counts the calls that passed admission per rate limit since its own start, in one query", async () => {
    const totals = await sumAdmittedRateLimitUsage(dataPlane, {
      organizationId,
      limits: [
        { id: "project-minute", scope: "project", scopeId: projectId, from: new Date("2026-03-18T11:59:00Z") },
        { id: "key-created-late", scope: "key", scopeId: keyId, from: new Date("2026-03-18T11:59:42Z") },
        { id: "team-key-hour", scope: "key", scopeId: teamKeyId, from: new Date("2026-03-18T11:00:00Z") },
        { id: "idle", scope: "project", scopeId: otherProjectId, from: new Date("2026-03-18T12:00:00Z") },
      ],
    });
    // The fixture's events carry 10 + 5 + 1 + 2 = 18 tokens each.
    expect(Object.fromEntries(totals)).toEqual({
      "project-minute": { requests: 2, tokens: 36 },
      "key-created-late": { requests: 1, tokens: 18 },
      "team-key-hour": { requests: 1, tokens: 18 },
      idle: { requests: 0, tokens: 0 },
    });
  });

  it.skipIf(target.skip)("lists the admitted calls' tokens per UTC minute since a time, to rebuild a token window", async () => {
    const buckets = await listAdmittedTokenBuckets(dataPlane, { organizationId, scope: "key", scopeId: keyId, from: new Date("2026-03-16T00:00:00Z") });
    // 03-16 08:00 (18), 03-18 11:59 (200 and 502 after admission: 36; the 429 refusal does not count).
    expect(buckets).toEqual([
      { time: Date.parse("2026-03-16T08:00:00Z"), tokens: 18 },
      { time: Date.parse("2026-03-18T11:59:00Z"), tokens: 36 },
    ]);
    expect(await listAdmittedTokenBuckets(dataPlane, { organizationId, scope: "project", scopeId: otherProjectId, from: new Date("2026-03-18T11:59:51Z") })).toEqual([]);
  });
});
