import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, claimEvaluatorLease, createMonitorRule, createMonitorStates, createOrganization, listMonitorStates } from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

describe.each(databaseTargets)("batched first monitor states on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let ruleId: string;
  const now = new Date("2026-01-02T13:40:30Z");
  const lease = { name: "monitors", holder: "me", now };
  const state = (scopeValue: string, calls: number) => ({ ruleId, scopeValue, status: "ok" as const, value: calls === 0 ? null : calls * 1.5, calls, since: now, evaluatedAt: now, lastNotifiedAt: null });

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    const organizationId = (await createOrganization(db, { name: "Monitors", slug: `monitors-${randomBytes(3).toString("hex")}` })).id;
    ruleId = (
      await createMonitorRule(db, {
        organizationId, name: "errors", description: null, metric: "error_rate", scopeKind: "model", scopeValue: null, windowMinutes: 5, comparator: "gt", threshold: 0.5,
        minCalls: null, severity: "warning", channelIds: [], renotifyMinutes: null, enabled: true, mutedUntil: null,
      })
    ).id;
  });

  afterAll(async () => {
    if (target.skip) return;
    await db.close();
    await fresh.cleanup();
  });

  it.skipIf(target.skip)("creates states only while the lease is held, and never overwrites one that exists", async () => {
    expect(await createMonitorStates(db, lease, [state("gpt", 2)])).toBe(0);
    expect(await listMonitorStates(db, [ruleId])).toEqual([]);

    expect(await claimEvaluatorLease(db, { name: "monitors", holder: "me", now, ttlMs: 60_000 })).toBe(true);
    expect(await createMonitorStates(db, lease, [state("gpt", 2), state("claude", 0)])).toBe(2);
    expect(await createMonitorStates(db, lease, [state("gpt", 9), state("llama", 4)])).toBe(1);
    const stored = await listMonitorStates(db, [ruleId]);
    expect(stored.map(({ scopeValue, status, value, calls, since, lastNotifiedAt }) => ({ scopeValue, status, value, calls, since, lastNotifiedAt }))).toEqual([
      { scopeValue: "claude", status: "ok", value: null, calls: 0, since: now, lastNotifiedAt: null },
      { scopeValue: "gpt", status: "ok", value: 3, calls: 2, since: now, lastNotifiedAt: null },
      { scopeValue: "llama", status: "ok", value: 6, calls: 4, since: now, lastNotifiedAt: null },
    ]);

    expect(await createMonitorStates(db, { ...lease, now: new Date(now.getTime() + 120_000) }, [state("mistral", 1)])).toBe(0);
  });
});
