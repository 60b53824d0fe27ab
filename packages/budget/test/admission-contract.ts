import { GatewayError } from "@gateway/errors";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AdmissionController, AdmitInput, BudgetRule, CounterStore, RateLimitRule } from "../src/index.js";
import { createAdmissionController } from "../src/index.js";

/** A settable clock shared by the stores of one test. */
export interface TestClock {
  (): number;
  set(time: number): void;
  advance(milliseconds: number): void;
}

export function createTestClock(start: number): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.set = (time) => {
    now = time;
  };
  clock.advance = (milliseconds) => {
    now += milliseconds;
  };
  return clock;
}

/** Two stores that share state, as two gateway instances would. */
export interface SharedStores {
  first: CounterStore;
  second: CounterStore;
  close(): Promise<void>;
}

const caller = { organizationId: "org_1", projectId: "project_1", apiKeyId: "key_1", teamId: "team_1" };
const start = Date.parse("2026-11-22T12:00:00Z");
const minute = 60_000;

function admitInput(overrides: Partial<AdmitInput>): AdmitInput {
  return { ...caller, budgets: [], rateLimits: [], estimatedCostMicros: 0, estimatedTokens: 0, ...overrides };
}

function budget(overrides: Partial<BudgetRule>): BudgetRule {
  return {
    id: `budget_${Math.random().toString(36).slice(2, 8)}`,
    organizationId: "org_1",
    scope: "project",
    scopeId: "project_1",
    amountMicros: 1_000_000,
    period: "day",
    mode: "hard",
    thresholds: [],
    ...overrides,
  };
}

function rateLimit(overrides: Partial<RateLimitRule>): RateLimitRule {
  return {
    id: `limit_${Math.random().toString(36).slice(2, 8)}`,
    organizationId: "org_1",
    scope: "key",
    scopeId: "key_1",
    windowSeconds: 60,
    requestsPerWindow: null,
    tokensPerWindow: null,
    concurrency: null,
    ...overrides,
  };
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

/** Random integer in [low, high]. Seeded so a failure is reproducible. */
function createRandom(seed: number): (low: number, high: number) => number {
  let state = seed >>> 0;
  return (low, high) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return low + (state % (high - low + 1));
  };
}

/**
 * The behaviour every store must give the admission controller, exercised through two
 * controllers sharing one store backend (two gateway instances).
 */
export function defineAdmissionContract(createStores: (clock: TestClock) => Promise<SharedStores>): void {
  let clock: TestClock;
  let stores: SharedStores;
  let first: AdmissionController;
  let second: AdmissionController;
  const controllerAt = (index: number) => (index % 2 === 0 ? first : second);

  beforeEach(async () => {
    clock = createTestClock(start);
    stores = await createStores(clock);
    first = createAdmissionController({ store: stores.first });
    second = createAdmissionController({ store: stores.second });
  });

  afterEach(async () => {
    await stores.close();
  });

  describe("hard budgets", () => {
    it("never lets settled spend exceed the budget under 200 concurrent admissions of random sizes", async () => {
      const random = createRandom(42);
      const hard = budget({ amountMicros: 1_000_000 });
      let settledTotal = 0;
      let rejected = 0;
      await Promise.all(
        Array.from({ length: 200 }, async (_, index) => {
          const estimate = random(5_000, 40_000);
          const actual = random(0, estimate);
          const fails = random(0, 9) === 0;
          let admission;
          try {
            admission = await controllerAt(index).admit(admitInput({ budgets: [hard], estimatedCostMicros: estimate }));
          } catch (error) {
            expect(GatewayError.isInstance(error) && error.code).toBe("hard_budget_exceeded");
            rejected += 1;
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, random(0, 3)));
          if (fails) {
            await admission.release();
          } else {
            settledTotal += actual;
            expect((await admission.settle({ costMicros: actual, tokens: 0 })).recorded).toBe(true);
          }
        }),
      );
      const usage = await first.readBudgetUsage(hard);
      expect(rejected).toBeGreaterThan(0);
      expect(usage.spentMicros).toBe(settledTotal);
      expect(usage.spentMicros).toBeLessThanOrEqual(hard.amountMicros);
      expect(usage.reservedMicros).toBe(0);
    });

    it("rejects when spent + reserved + this call would exceed the amount, naming the budget", async () => {
      const hard = budget({ amountMicros: 10_000, period: "month" });
      const held = await first.admit(admitInput({ budgets: [hard], estimatedCostMicros: 6_000 }));
      await held.settle({ costMicros: 3_000, tokens: 0 });
      await second.admit(admitInput({ budgets: [hard], estimatedCostMicros: 4_000 }));
      await first.admit(admitInput({ budgets: [hard], estimatedCostMicros: 3_000 })); // exactly at the amount
      const error = await rejection(second.admit(admitInput({ budgets: [hard], estimatedCostMicros: 1 })));
      expect(error.code).toBe("hard_budget_exceeded");
      expect(error.status).toBe(424);
      expect(error.details).toMatchObject({
        budget_id: hard.id,
        scope: "project",
        period: "month",
        period_key: "2026-11",
        limit_micros: 10_000,
        spent_micros: 3_000,
        reserved_micros: 7_000,
      });
    });

    it("reserves on every applicable budget all-or-nothing and ignores budgets of other scopes", async () => {
      const organization = budget({ scope: "organization", scopeId: "org_1", amountMicros: 100_000 });
      const team = budget({ scope: "team", scopeId: "team_1", amountMicros: 100_000, period: "week" });
      const key = budget({ scope: "key", scopeId: "key_1", amountMicros: 5_000 });
      const otherProject = budget({ scopeId: "project_2", amountMicros: 0 });
      const budgets = [organization, team, key, otherProject];
      const admission = await first.admit(admitInput({ budgets, estimatedCostMicros: 4_000 }));
      expect([...admission.hardBudgetIds].sort()).toEqual([organization.id, team.id, key.id].sort());
      expect((await first.readBudgetUsage(organization)).reservedMicros).toBe(4_000);
      expect((await first.readBudgetUsage(team)).reservedMicros).toBe(4_000);

      const error = await rejection(second.admit(admitInput({ budgets, estimatedCostMicros: 2_000 })));
      expect(error.details).toMatchObject({ budget_id: key.id });
      // The rejected call left nothing behind on the budgets that had room.
      expect((await first.readBudgetUsage(organization)).reservedMicros).toBe(4_000);
      expect((await first.readBudgetUsage(team)).reservedMicros).toBe(4_000);

      await admission.settle({ costMicros: 1_500, tokens: 0 });
      for (const rule of [organization, team, key]) {
        expect(await first.readBudgetUsage(rule)).toMatchObject({ spentMicros: 1_500, reservedMicros: 0 });
      }
      // A team budget does not apply to a caller without a team.
      await second.admit(admitInput({ budgets: [team], teamId: null, estimatedCostMicros: 1_000_000 }));
    });

    it("release drops the reservation without spend, and settle/release only count once", async () => {
      const hard = budget({ amountMicros: 10_000 });
      const released = await first.admit(admitInput({ budgets: [hard], estimatedCostMicros: 9_000 }));
      expect((await released.release()).recorded).toBe(true);
      expect(await first.readBudgetUsage(hard)).toMatchObject({ spentMicros: 0, reservedMicros: 0 });
      const settled = await second.admit(admitInput({ budgets: [hard], estimatedCostMicros: 9_000 }));
      await settled.settle({ costMicros: 2_000, tokens: 0 });
      expect((await settled.settle({ costMicros: 2_000, tokens: 0 })).recorded).toBe(false);
      expect((await settled.release()).recorded).toBe(false);
      expect(await first.readBudgetUsage(hard)).toMatchObject({ spentMicros: 2_000, reservedMicros: 0 });
    });

    it("reclaims reservations of calls that never settle once their lease expires", async () => {
      const hard = budget({ amountMicros: 10_000 });
      await first.admit(admitInput({ budgets: [hard], estimatedCostMicros: 8_000, leaseMs: 5 * minute })); // the process "dies"
      const late = await second.admit(admitInput({ budgets: [hard], estimatedCostMicros: 1_000, leaseMs: 30 * minute }));
      expect((await rejection(second.admit(admitInput({ budgets: [hard], estimatedCostMicros: 5_000 })))).code).toBe("hard_budget_exceeded");
      clock.advance(5 * minute);
      expect((await first.readBudgetUsage(hard)).reservedMicros).toBe(1_000);
      await second.admit(admitInput({ budgets: [hard], estimatedCostMicros: 5_000 }));
      expect((await first.readBudgetUsage(hard)).reservedMicros).toBe(6_000);
      // A settle after its own reservation expired still records the real cost.
      clock.advance(30 * minute);
      await late.settle({ costMicros: 700, tokens: 0 });
      expect(await first.readBudgetUsage(hard)).toMatchObject({ spentMicros: 700, reservedMicros: 0 });
    });

    it("starts a new period at the UTC boundary and books late settlements in the admission's period", async () => {
      const daily = budget({ amountMicros: 10_000, period: "day" });
      clock.set(Date.parse("2026-11-22T23:59:59Z"));
      const admission = await first.admit(admitInput({ budgets: [daily], estimatedCostMicros: 10_000 }));
      expect(admission.budgetPeriodKeys[daily.id]).toBe("2026-11-22");
      clock.set(Date.parse("2026-11-23T00:00:01Z"));
      const next = await second.admit(admitInput({ budgets: [daily], estimatedCostMicros: 10_000 }));
      expect(next.budgetPeriodKeys[daily.id]).toBe("2026-11-23");
      await admission.settle({ costMicros: 4_000, tokens: 0 });
      expect(await first.readBudgetUsage(daily)).toMatchObject({ periodKey: "2026-11-23", spentMicros: 0, reservedMicros: 10_000 });
    });

    it("refuses decision calls whenever a hard budget applies, and only then", async () => {
      const hard = budget({ scope: "key", scopeId: "key_1", amountMicros: 1_000_000_000 });
      const soft = budget({ mode: "soft", thresholds: [0.5] });
      const error = await rejection(first.admitDecision(admitInput({ budgets: [soft, hard], estimatedCostMicros: 1 })));
      expect(error.code).toBe("hard_budget_decision_unbounded");
      expect(error.status).toBe(424);
      expect(error.details).toMatchObject({ budget_id: hard.id, scope: "key" });
      expect((await rejection(first.admit(admitInput({ budgets: [hard], isDecision: true })))).code).toBe("hard_budget_decision_unbounded");
      const otherKey = budget({ scope: "key", scopeId: "key_2" });
      const admission = await second.admitDecision(admitInput({ budgets: [soft, otherKey], estimatedCostMicros: 1 }));
      expect(admission.hardBudgetIds).toEqual([]);
    });
  });

  describe("soft budgets", () => {
    it("never block and report each threshold exactly once per period under concurrency", async () => {
      const soft = budget({ mode: "soft", amountMicros: 100_000, thresholds: [0.5, 0.8, 1] });
      const settleAll = async () => {
        const results = await Promise.all(
          Array.from({ length: 200 }, async (_, index) => {
            const admission = await controllerAt(index).admit(admitInput({ budgets: [soft], estimatedCostMicros: 1_000_000 }));
            return admission.settle({ costMicros: 1_000, tokens: 0 });
          }),
        );
        return results.flatMap((result) => result.thresholdCrossings);
      };
      // The counter is live (seeded from recorded usage, here none), as after a gateway's first
      // admission or page read: crossings are then found by the settlement that reaches them.
      await first.readBudgetUsage(soft);
      const crossings = await settleAll();
      expect(crossings.map((crossing) => crossing.threshold).sort()).toEqual([0.5, 0.8, 1]);
      for (const crossing of crossings) {
        expect(crossing).toMatchObject({ budgetId: soft.id, periodKey: "2026-11-22", mode: "soft", amountMicros: 100_000 });
        // Settlements are 1000 each, so the first crosser sees exactly the threshold.
        expect(crossing.spentMicros).toBe(crossing.thresholdMicros);
      }
      expect((await first.readBudgetUsage(soft)).spentMicros).toBe(200_000);
      expect(await settleAll()).toEqual([]);

      clock.advance(24 * 60 * minute);
      // A new period starts an unseeded counter: settlements racing its seed still report each threshold once.
      const nextDay = await settleAll();
      expect(nextDay.map((crossing) => crossing.threshold).sort()).toEqual([0.5, 0.8, 1]);
      expect(nextDay.every((crossing) => crossing.periodKey === "2026-11-23")).toBe(true);
    });

    it("reports several thresholds crossed by one settlement", async () => {
      const soft = budget({ mode: "soft", amountMicros: 1_000, thresholds: [0.25, 0.5, 2] });
      const admission = await first.admit(admitInput({ budgets: [soft] }));
      const { thresholdCrossings } = await admission.settle({ costMicros: 600, tokens: 0 });
      expect(thresholdCrossings.map((crossing) => [crossing.threshold, crossing.thresholdMicros, crossing.spentMicros])).toEqual([
        [0.25, 250, 600],
        [0.5, 500, 600],
      ]);
    });
  });

  describe("rate limits", () => {
    it("admits exactly N requests per window of 200 concurrent across two instances", async () => {
      const limit = rateLimit({ requestsPerWindow: 37, windowSeconds: 60 });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 200 }, (_, index) => controllerAt(index).admit(admitInput({ rateLimits: [limit] }))),
      );
      const admitted = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
      expect(admitted).toBe(37);
      for (const outcome of outcomes) {
        if (outcome.status === "fulfilled") continue;
        const error = outcome.reason as GatewayError;
        expect(error.code).toBe("gateway_rate_limit_exceeded");
        expect(error.status).toBe(429);
        expect(error.retryAfter).toBe(60);
        expect(error.details).toEqual({ limit_id: limit.id, scope: "key", kind: "requests" });
      }
      clock.advance(59_999);
      expect((await rejection(first.admit(admitInput({ rateLimits: [limit] })))).retryAfter).toBe(1);
      clock.advance(1);
      await first.admit(admitInput({ rateLimits: [limit] }));
    });

    it("slides the window: at most N in any window, freeing slots as the oldest leave", async () => {
      const limit = rateLimit({ scope: "project", scopeId: "project_1", requestsPerWindow: 3, windowSeconds: 10 });
      await first.admit(admitInput({ rateLimits: [limit] }));
      clock.advance(4_000);
      await second.admit(admitInput({ rateLimits: [limit] }));
      await first.admit(admitInput({ rateLimits: [limit] }));
      clock.advance(2_500);
      const error = await rejection(second.admit(admitInput({ rateLimits: [limit] })));
      expect(error.retryAfter).toBe(4); // the first request leaves after 10 s: 3.5 s from now, rounded up
      expect(error.details).toEqual({ limit_id: limit.id, scope: "project", kind: "requests" });
      clock.advance(3_500);
      await second.admit(admitInput({ rateLimits: [limit] }));
      // Entries now at 4 s, 4 s and 10 s: the next slot frees when the 4 s ones leave, at 14 s.
      expect((await rejection(first.admit(admitInput({ rateLimits: [limit] })))).retryAfter).toBe(4);
      clock.advance(3_999);
      expect((await rejection(first.admit(admitInput({ rateLimits: [limit] })))).retryAfter).toBe(1);
    });

    it("counts estimated tokens at admission and corrects them with actual tokens at settle", async () => {
      const limit = rateLimit({ tokensPerWindow: 1_000, windowSeconds: 60 });
      const big = await first.admit(admitInput({ rateLimits: [limit], estimatedTokens: 600 }));
      const error = await rejection(second.admit(admitInput({ rateLimits: [limit], estimatedTokens: 600 })));
      expect(error.details).toEqual({ limit_id: limit.id, scope: "key", kind: "tokens" });
      expect(error.retryAfter).toBe(60);
      await big.settle({ costMicros: 0, tokens: 100 });
      const second600 = await second.admit(admitInput({ rateLimits: [limit], estimatedTokens: 600 }));
      await second600.release(); // released calls drop their tokens
      clock.advance(30_000);
      const third = await first.admit(admitInput({ rateLimits: [limit], estimatedTokens: 900 }));
      expect((await rejection(first.admit(admitInput({ rateLimits: [limit], estimatedTokens: 1 })))).retryAfter).toBe(30);
      clock.advance(30_000); // the 100-token call leaves the window
      await third.settle({ costMicros: 0, tokens: 950 });
      await second.admit(admitInput({ rateLimits: [limit], estimatedTokens: 50 }));
      expect((await rejection(second.admit(admitInput({ rateLimits: [limit], estimatedTokens: 1 })))).details).toMatchObject({ kind: "tokens" });
      // More tokens than the whole limit can never pass.
      clock.advance(120_000);
      expect((await rejection(first.admit(admitInput({ rateLimits: [limit], estimatedTokens: 1_001 })))).retryAfter).toBe(60);
    });

    it("limits concurrent calls, frees slots on settle/release and reclaims expired leases", async () => {
      const limit = rateLimit({ concurrency: 2 });
      const one = await first.admit(admitInput({ rateLimits: [limit], leaseMs: minute }));
      await second.admit(admitInput({ rateLimits: [limit], leaseMs: 10 * minute })); // never settles
      const error = await rejection(first.admit(admitInput({ rateLimits: [limit] })));
      expect(error.details).toEqual({ limit_id: limit.id, scope: "key", kind: "concurrency" });
      expect(error.retryAfter).toBe(1);
      await one.release();
      const three = await second.admit(admitInput({ rateLimits: [limit], leaseMs: minute }));
      await rejection(first.admit(admitInput({ rateLimits: [limit] })));
      await three.settle({ costMicros: 0, tokens: 0 });
      const four = await first.admit(admitInput({ rateLimits: [limit], leaseMs: minute }));
      await rejection(second.admit(admitInput({ rateLimits: [limit] })));
      clock.advance(10 * minute); // both leases expired: the crashed call's slot comes back
      await second.admit(admitInput({ rateLimits: [limit] }));
      await first.admit(admitInput({ rateLimits: [limit] }));
      await four.settle({ costMicros: 0, tokens: 0 }); // late settle of an expired lease frees nothing else
      await rejection(first.admit(admitInput({ rateLimits: [limit] })));
    });

    it("admits nothing when a rate limit rejects, even if budgets had room", async () => {
      const hard = budget({ amountMicros: 10_000 });
      const limit = rateLimit({ requestsPerWindow: 1 });
      await first.admit(admitInput({ budgets: [hard], rateLimits: [limit], estimatedCostMicros: 1_000 }));
      await rejection(second.admit(admitInput({ budgets: [hard], rateLimits: [limit], estimatedCostMicros: 1_000 })));
      expect((await first.readBudgetUsage(hard)).reservedMicros).toBe(1_000);
    });

    it("admits exactly the concurrency limit under 200 concurrent admissions", async () => {
      const limit = rateLimit({ concurrency: 13 });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 200 }, (_, index) => controllerAt(index).admit(admitInput({ rateLimits: [limit] }))),
      );
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled").length).toBe(13);
    });
  });
}
