import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import type { AdmitInput, BudgetRule, CounterStore, PeriodWindow, RateLimitRule } from "../src/index.js";
import { budgetCounterKey, createAdmissionController } from "../src/index.js";
import { createTestClock, type TestClock } from "./admission-contract.js";

/** Stores for the seeding contract: two instances sharing counters, and a way to lose them all. */
export interface SeedingStores {
  first: CounterStore;
  second: CounterStore;
  /** Loses every counter (Redis flushed or restarted without persistence; a restarted process for memory). */
  loseCounters(): Promise<void>;
  close(): Promise<void>;
}

const caller = { organizationId: "org_1", projectId: "project_1", apiKeyId: "key_1", teamId: null };
const start = Date.parse("2026-11-22T12:00:00Z");

function budget(overrides: Partial<BudgetRule> = {}): BudgetRule {
  return {
    id: `budget_${Math.random().toString(36).slice(2, 8)}`,
    organizationId: "org_1",
    scope: "project",
    scopeId: "project_1",
    amountMicros: 200_000,
    period: "day",
    mode: "hard",
    thresholds: [],
    ...overrides,
  };
}

function input(budgets: BudgetRule[], estimatedCostMicros: number, rateLimits: RateLimitRule[] = []): AdmitInput {
  return { ...caller, budgets, rateLimits, estimatedCostMicros, estimatedTokens: 10 };
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a GatewayError rejection");
}

/** A loader over a table of recorded spend per budget id, counting its calls. */
function recordedSpend(table: Record<string, number>) {
  const calls: { budgetId: string; window: PeriodWindow }[] = [];
  const load = async (rule: BudgetRule, window: PeriodWindow) => {
    calls.push({ budgetId: rule.id, window });
    await new Promise((resolve) => setImmediate(resolve));
    return table[rule.id] ?? 0;
  };
  return { load, calls, table };
}

/**
 * A counter that is missing (new, restarted, flushed) is rebuilt from recorded usage before
 * admission, once, and never read as 0.
 */
export function defineSeedingContract(createStores: (clock: TestClock) => Promise<SeedingStores>): void {
  describe("counters rebuilt from recorded usage", () => {
    it("refuses a call over a budget whose spend was recorded before the counter existed, with the recorded spend in the details", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const rule = budget({ amountMicros: 200_000 });
        const recorded = recordedSpend({ [rule.id]: 300_000 });
        const controller = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        const refused = await rejection(controller.admit(input([rule], 1)));
        expect(refused.code).toBe("hard_budget_exceeded");
        expect(refused.details).toMatchObject({ spent_micros: 300_000, reserved_micros: 0, limit_micros: 200_000 });
        expect(await controller.readBudgetUsage(rule)).toMatchObject({ spentMicros: 300_000, reservedMicros: 0 });
        expect(recorded.calls).toEqual([{ budgetId: rule.id, window: expect.objectContaining({ key: "2026-11-22" }) }]);
      } finally {
        await stores.close();
      }
    });

    it("seeds a missing counter once under 100 concurrent admissions on two instances (never double counted)", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const rule = budget({ amountMicros: 1_000_000 });
        const recorded = recordedSpend({ [rule.id]: 500_000 });
        const first = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        const second = createAdmissionController({ store: stores.second, loadRecordedSpend: recorded.load });
        const results = await Promise.allSettled(
          Array.from({ length: 100 }, (_, index) => (index % 2 === 0 ? first : second).admit(input([rule], 10_000))),
        );
        // 500_000 recorded leaves room for exactly 50 reservations of 10_000.
        expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(50);
        expect(await first.readBudgetUsage(rule)).toEqual({ periodKey: "2026-11-22", spentMicros: 500_000, reservedMicros: 500_000 });
        // One load per instance at most, however many admissions waited for it.
        expect(recorded.calls.length).toBeGreaterThanOrEqual(1);
        expect(recorded.calls.length).toBeLessThanOrEqual(2);
      } finally {
        await stores.close();
      }
    });

    it("keeps spend settled into a counter before it was seeded, and reports the threshold it crossed once", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const soft = budget({ mode: "soft", amountMicros: 100_000, thresholds: [0.5, 0.8] });
        const recorded = recordedSpend({ [soft.id]: 60_000 });
        const controller = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        const admission = await controller.admit(input([soft], 0));
        const settled = await admission.settle({ costMicros: 25_000, tokens: 10 });
        // 60_000 recorded had reported 0.5 already; + 25_000 settled crosses 0.8 now.
        expect(settled.thresholdCrossings.map((crossing) => crossing.threshold)).toEqual([0.8]);
        expect(settled.thresholdCrossings[0]).toMatchObject({ spentMicros: 85_000 });
        expect(await controller.readBudgetUsage(soft)).toMatchObject({ spentMicros: 85_000 });
        const again = await (await controller.admit(input([soft], 0))).settle({ costMicros: 10_000, tokens: 10 });
        expect(again.thresholdCrossings).toEqual([]);
        expect(recorded.calls).toHaveLength(1);
      } finally {
        await stores.close();
      }
    });

    it("a seed racing with another instance's seed and settle adds the recorded spend once and loses no settled spend", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const rule = budget({ amountMicros: 1_000_000 });
        const key = budgetCounterKey(rule, "2026-11-22");
        // A call admitted before the counter was lost settles into the empty counter...
        await stores.second.settle({ admissionId: "old.1", now: clock(), spends: [{ key, amountMicros: 7_000, expiresAt: null, thresholds: [] }], tokenCorrections: [], concurrencyReleases: [] });
        // ...and two instances seed at once.
        const seeds = await Promise.all([
          stores.first.seedBudget({ key, amountMicros: 300_000, expiresAt: null, thresholds: [], now: clock() }),
          stores.second.seedBudget({ key, amountMicros: 300_000, expiresAt: null, thresholds: [], now: clock() }),
        ]);
        expect(seeds.filter((seed) => seed.seeded)).toHaveLength(1);
        expect(await stores.first.readBudgets([key])).toEqual([{ spentMicros: 307_000, reservedMicros: 0, seeded: true }]);
      } finally {
        await stores.close();
      }
    });

    it("after the counters are lost, the next admission rebuilds from recorded usage instead of reading 0", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const rule = budget({ amountMicros: 200_000 });
        const recorded = recordedSpend({ [rule.id]: 0 });
        const controller = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        await (await controller.admit(input([rule], 150_000))).settle({ costMicros: 150_000, tokens: 10 });
        recorded.table[rule.id] = 150_000; // the usage writer recorded it
        await stores.loseCounters();
        const fresh = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        const refused = await rejection(fresh.admit(input([rule], 60_000)));
        expect(refused.details).toMatchObject({ spent_micros: 150_000 });
        await fresh.admit(input([rule], 50_000));
        expect(await fresh.readBudgetUsage(rule)).toMatchObject({ spentMicros: 150_000, reservedMicros: 50_000 });
      } finally {
        await stores.close();
      }
    });

    it("fails closed with 503 when the recorded spend cannot be loaded, and admits once it can", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const rule = budget();
        let failing = true;
        const errors: string[] = [];
        const controller = createAdmissionController({
          store: stores.first,
          loadRecordedSpend: async () => {
            if (failing) throw new Error("database unreachable");
            return 10_000;
          },
          onStoreError: (_error, context) => errors.push(context.operation),
        });
        const refused = await rejection(controller.admit(input([rule], 1_000)));
        expect(refused.code).toBe("service_unavailable");
        expect(refused.status).toBe(503);
        expect(errors).toEqual(["admit"]);
        failing = false;
        await controller.admit(input([rule], 1_000));
        expect(await controller.readBudgetUsage(rule)).toMatchObject({ spentMicros: 10_000, reservedMicros: 1_000 });
      } finally {
        await stores.close();
      }
    });

    it("a new counter version (budget changed or reset) starts from the recorded spend, not from the old counter", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const rule = budget({ amountMicros: 500_000, counterVersion: "1" });
        const recorded = recordedSpend({ [rule.id]: 100_000 });
        const controller = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        await (await controller.admit(input([rule], 50_000))).settle({ costMicros: 50_000, tokens: 10 });
        expect(await controller.readBudgetUsage(rule)).toMatchObject({ spentMicros: 150_000 });
        // Reset: the baseline makes the recorded spend of the period 0 for the new version.
        recorded.table[rule.id] = 0;
        const reset = { ...rule, counterVersion: "2", spendReset: { periodKey: "2026-11-22", baselineMicros: 150_000 } };
        expect(await controller.readBudgetUsage(reset)).toMatchObject({ spentMicros: 0, reservedMicros: 0 });
        await controller.admit(input([reset], 400_000));
      } finally {
        await stores.close();
      }
    });

    it("rolls over at the UTC day boundary into a counter seeded with the new period's recorded spend", async () => {
      const clock = createTestClock(Date.parse("2026-11-22T23:59:59Z"));
      const stores = await createStores(clock);
      try {
        const rule = budget({ amountMicros: 100_000 });
        const recorded = recordedSpend({ [rule.id]: 90_000 });
        const controller = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        expect((await rejection(controller.admit(input([rule], 20_000)))).details).toMatchObject({ period_key: "2026-11-22", spent_micros: 90_000 });
        clock.set(Date.parse("2026-11-23T00:00:00Z"));
        recorded.table[rule.id] = 0;
        await controller.admit(input([rule], 20_000));
        expect(recorded.calls.map((call) => call.window.key)).toEqual(["2026-11-22", "2026-11-23"]);
      } finally {
        await stores.close();
      }
    });

    it("rebuilds a missing token window of an hour or more from recorded usage; shorter windows start empty", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const limit = (windowSeconds: number): RateLimitRule => ({
          id: `limit_${Math.random().toString(36).slice(2, 8)}`,
          organizationId: "org_1",
          scope: "key",
          scopeId: "key_1",
          windowSeconds,
          requestsPerWindow: null,
          tokensPerWindow: 1_000,
          concurrency: null,
        });
        const hourly = limit(3600);
        const minutely = limit(60);
        const loads: { limitId: string; fromMs: number }[] = [];
        const settings = {
          loadRecordedTokens: async (rule: RateLimitRule, fromMs: number) => {
            loads.push({ limitId: rule.id, fromMs });
            return [{ time: start - 50 * 60_000, tokens: 300 }, { time: start - 10 * 60_000, tokens: 600 }].filter((entry) => entry.time >= fromMs);
          },
        };
        const first = createAdmissionController({ store: stores.first, ...settings });
        const second = createAdmissionController({ store: stores.second, ...settings });
        // 900 recorded in the last hour: 200 more do not fit, on either instance (seeded once, not twice).
        const refusals = await Promise.allSettled([first.admit({ ...input([], 0, [hourly]), estimatedTokens: 200 }), second.admit({ ...input([], 0, [hourly]), estimatedTokens: 200 })]);
        for (const refusal of refusals) {
          expect(refusal.status).toBe("rejected");
          expect((refusal as PromiseRejectedResult).reason).toMatchObject({ code: "gateway_rate_limit_exceeded", details: { kind: "tokens" } });
        }
        expect(await first.readRateLimitUsage(hourly)).toMatchObject({ tokens: 900 });
        expect(loads[0]).toEqual({ limitId: hourly.id, fromMs: start - 3_600_000 });
        await first.admit({ ...input([], 0, [hourly]), estimatedTokens: 100 });
        // The recorded entries leave the window as time passes, like admitted ones.
        clock.advance(11 * 60_000);
        expect(await first.readRateLimitUsage(hourly)).toMatchObject({ tokens: 700 });
        await first.admit({ ...input([], 0, [hourly]), estimatedTokens: 300 });
        // A limit created within the window rebuilds only what came after its creation.
        const recent = { ...limit(3600), createdAt: new Date(clock() - 5 * 60_000) };
        await first.admit({ ...input([], 0, [recent]), estimatedTokens: 1_000 });
        expect(loads.at(-1)).toEqual({ limitId: recent.id, fromMs: clock() - 5 * 60_000 });
        // A minute window is never rebuilt: it starts empty.
        await first.admit({ ...input([], 0, [minutely]), estimatedTokens: 1_000 });
        expect(loads.every((load) => load.limitId !== minutely.id)).toBe(true);

        // Counters lost (Redis flushed, or a restart): the hour is rebuilt again, never read as empty,
        // by a page read as by an admission.
        await stores.loseCounters();
        const fresh = createAdmissionController({ store: stores.first, ...settings });
        expect(await fresh.readRateLimitUsage(hourly)).toMatchObject({ tokens: 600 });
        await stores.loseCounters();
        const refused = await rejection(fresh.admit({ ...input([], 0, [hourly]), estimatedTokens: 500 }));
        expect(refused.code).toBe("gateway_rate_limit_exceeded");
      } finally {
        await stores.close();
      }
    });

    it("reads a rate limit's window as the limiter counts it: admitted calls only", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const limit: RateLimitRule = {
          id: `limit_${Math.random().toString(36).slice(2, 8)}`,
          organizationId: "org_1",
          scope: "key",
          scopeId: "key_1",
          windowSeconds: 60,
          requestsPerWindow: 3,
          tokensPerWindow: null,
          concurrency: 5,
        };
        const controller = createAdmissionController({ store: stores.first });
        expect(await controller.readRateLimitUsage(limit)).toEqual({ requests: 0, tokens: 0, concurrent: 0 });
        // (No token cap, no loader: nothing is rebuilt.)
        const admissions = [];
        for (let index = 0; index < 3; index++) admissions.push(await controller.admit(input([], 0, [limit])));
        for (let index = 0; index < 4; index++) expect((await rejection(controller.admit(input([], 0, [limit])))).code).toBe("gateway_rate_limit_exceeded");
        await admissions[0]!.settle({ costMicros: 0, tokens: 7 });
        expect(await controller.readRateLimitUsage(limit)).toEqual({ requests: 3, tokens: 0, concurrent: 2 });
        clock.advance(60_001);
        expect(await controller.readRateLimitUsage(limit)).toEqual({ requests: 0, tokens: 0, concurrent: 2 });
      } finally {
        await stores.close();
      }
    });

    it("reads many budgets in one call, in their order: live counters as they are, missing ones seeded from recorded usage", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const live = budget({ amountMicros: 1_000_000 });
        const missing = budget({ amountMicros: 1_000_000, period: "month" });
        const untouched = budget({ amountMicros: 1_000_000, scopeId: "project_2" });
        const recorded = recordedSpend({ [live.id]: 100_000, [missing.id]: 40_000 });
        const controller = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        const admission = await controller.admit(input([live], 5_000));
        await admission.settle({ costMicros: 2_000, tokens: 10 });
        await controller.admit(input([live], 3_000));
        expect(await controller.readBudgetUsages([missing, live, untouched])).toEqual([
          { periodKey: "2026-11", spentMicros: 40_000, reservedMicros: 0 },
          { periodKey: "2026-11-22", spentMicros: 102_000, reservedMicros: 3_000 },
          { periodKey: "2026-11-22", spentMicros: 0, reservedMicros: 0 },
        ]);
        // Seeded once each: a second read loads nothing more.
        const loads = recorded.calls.length;
        expect(await controller.readBudgetUsages([live, missing])).toEqual([
          { periodKey: "2026-11-22", spentMicros: 102_000, reservedMicros: 3_000 },
          { periodKey: "2026-11", spentMicros: 40_000, reservedMicros: 0 },
        ]);
        expect(recorded.calls).toHaveLength(loads);
        expect(await controller.readBudgetUsages([])).toEqual([]);
      } finally {
        await stores.close();
      }
    });

    it("reads hundreds of budgets in their order (the Redis store reads them in chunks)", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const rules = Array.from({ length: 250 }, (_, index) => budget({ amountMicros: 1_000_000, scopeId: `project_${index}` }));
        const recorded = recordedSpend(Object.fromEntries(rules.map((rule, index) => [rule.id, index * 10])));
        const controller = createAdmissionController({ store: stores.first, loadRecordedSpend: recorded.load });
        const usages = await controller.readBudgetUsages(rules);
        expect(usages.map((usage) => usage.spentMicros)).toEqual(rules.map((_, index) => index * 10));
        expect((await controller.readBudgetUsages(rules)).map((usage) => usage.spentMicros)).toEqual(rules.map((_, index) => index * 10));
      } finally {
        await stores.close();
      }
    });

    it("reads many rate limits in one call, in their order, rebuilding the hour windows that admission would rebuild", async () => {
      const clock = createTestClock(start);
      const stores = await createStores(clock);
      try {
        const limit = (windowSeconds: number, tokensPerWindow: number | null): RateLimitRule => ({
          id: `limit_${Math.random().toString(36).slice(2, 8)}`,
          organizationId: "org_1",
          scope: "key",
          scopeId: "key_1",
          windowSeconds,
          requestsPerWindow: 10,
          tokensPerWindow,
          concurrency: 5,
        });
        const minute = limit(60, null);
        const hour = limit(3600, 10_000);
        const idle = limit(60, 10_000);
        const controller = createAdmissionController({
          store: stores.first,
          loadRecordedTokens: async (rule) => (rule.id === hour.id ? [{ time: start - 10 * 60_000, tokens: 400 }] : []),
        });
        await controller.admit({ ...input([], 0, [minute]), estimatedTokens: 5 });
        await controller.admit({ ...input([], 0, [minute]), estimatedTokens: 5 });
        expect(await controller.readRateLimitUsages([hour, minute, idle])).toEqual([
          { requests: 0, tokens: 400, concurrent: 0 },
          { requests: 2, tokens: 0, concurrent: 2 },
          { requests: 0, tokens: 0, concurrent: 0 },
        ]);
        expect(await controller.readRateLimitUsages([])).toEqual([]);
      } finally {
        await stores.close();
      }
    });
  });
}
