import { randomBytes } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import {
  budgetAppliesTo,
  budgetCounterKey,
  rateLimitAppliesTo,
  rateLimitCounterKeys,
  type BudgetRule,
  type CallerScope,
  type RateLimitRule,
} from "./budget-rule.js";
import type {
  AdmissionPlan,
  ConcurrencyLimitStep,
  CounterStore,
  RequestLimitStep,
  ReservationStep,
  SeedOutcome,
  SpendStep,
  ThresholdStep,
  TokenLimitStep,
} from "./counter-store.js";
import { createPeriodCache, type BudgetPeriod, type PeriodWindow } from "./period-key.js";

/**
 * The recorded spend of a budget in a period (micro-USD): what the usage records say, minus a
 * reset's baseline in the reset's period (`@gateway/db`'s `sumRecordedBudgetSpend`, the figure
 * the dashboard shows). Used to seed a counter that is missing; never called for a seeded one.
 */
export type RecordedSpendLoader = (budget: BudgetRule, window: PeriodWindow) => Promise<number>;

/**
 * The recorded tokens of a rate limit's admitted calls since `fromMs` (epoch ms: the window's
 * start, or the limit's `createdAt` when later), one entry per
 * time bucket, oldest first (`@gateway/db`'s `listAdmittedTokenBuckets`). Rebuilds a token window
 * of an hour or more when its log is missing; shorter windows start empty.
 */
export type RecordedTokensLoader = (rule: RateLimitRule, fromMs: number) => Promise<{ time: number; tokens: number }[]>;

/** Token windows at least this long are rebuilt from recorded usage (shorter ones start empty). */
export const rebuiltTokenWindowMs = 3_600_000;

/** What to do when the counter store (Redis) cannot be reached. */
export interface StoreFailurePolicy {
  /** `closed` (default): calls under a hard budget get 503 `service_unavailable`. `open`: they pass unchecked. */
  hardBudgets?: "closed" | "open";
  /** `open` (default): rate limits are not enforced while the store is down. `closed`: 503. */
  rateLimits?: "open" | "closed";
}

/** Settings of {@link createAdmissionController}. */
export interface AdmissionControllerSettings {
  store: CounterStore;
  /** Behaviour while the store is unreachable. Default `{ hardBudgets: "closed", rateLimits: "open" }`. */
  onRedisError?: StoreFailurePolicy;
  /**
   * How long a reservation and a concurrency slot live without settle/release (ms); after it
   * they are reclaimed, so a crashed process leaks nothing for longer. Must exceed the longest
   * call. Default 15 minutes; overridable per admission.
   */
  leaseMs?: number;
  /** Budget counters live until their period ends + lease + this margin (ms). Default 1 hour. */
  expiryMarginMs?: number;
  /** Called with store failures (admit that degraded or failed, settle/release that could not be recorded). */
  onStoreError?: (error: unknown, context: { operation: "admit" | "settle" | "release" | "seed" }) => void;
  /**
   * Loads the recorded spend of a budget's period when its counter is missing (new budget or
   * version, restarted process, Redis that lost the key). Without it a missing counter starts at
   * the spend settled since (nothing is recorded anywhere else). A failure refuses calls under
   * that hard budget like a store failure does (`onRedisError.hardBudgets`, default 503).
   */
  loadRecordedSpend?: RecordedSpendLoader;
  /**
   * Loads the recorded tokens of a rate limit's window when a token window of an hour or more is
   * missing (a restart, a Redis that lost the key), so it is not read as empty. Without it (and
   * for shorter windows) a missing window starts empty. A failure is a store failure (`onRedisError.rateLimits`).
   */
  loadRecordedTokens?: RecordedTokensLoader;
}

/** Input of {@link AdmissionController.admit}. */
export interface AdmitInput extends CallerScope {
  /** Budgets to consider (e.g. all of the organization's); those not applying to the caller are ignored. */
  budgets: readonly BudgetRule[];
  /** Rate limits to consider; those not applying to the caller are ignored. */
  rateLimits: readonly RateLimitRule[];
  /** Upper bound of the call's cost (see `estimateMaxCostMicros`), reserved on every applicable hard budget. */
  estimatedCostMicros: number;
  /** Upper bound of the call's tokens (input + max output), counted by token rate limits until settle. */
  estimatedTokens: number;
  /** Decision calls cannot cap output: refused with `hard_budget_decision_unbounded` under any hard budget. */
  isDecision?: boolean;
  /** Overrides the controller's `leaseMs` for this call (e.g. the call's deadline + a margin). */
  leaseMs?: number;
}

/** Actual usage of a finished call. */
export interface ActualUsage {
  /** Real cost (`computeCostMicros`). */
  costMicros: number;
  /** Real tokens (`countUsageTokens`): replaces the estimate in token rate limits. */
  tokens: number;
}

/** A budget threshold reached for the first time in its period; emit one notification per crossing. */
export interface BudgetThresholdCrossing {
  budgetId: string;
  budgetName: string | null;
  scope: BudgetRule["scope"];
  scopeId: string;
  mode: BudgetRule["mode"];
  period: BudgetPeriod;
  /** `2026-11-22`, `2026-W47`, `2026-11` or `total`. */
  periodKey: string;
  /** The fraction from the budget's `thresholds`. */
  threshold: number;
  thresholdMicros: number;
  amountMicros: number;
  /** Spend of the period right after this settlement. */
  spentMicros: number;
}

/** Result of {@link Admission.settle} and {@link Admission.release}. */
export interface SettleResult {
  /** False when the store could not be reached (spend lost; reservations expire with their lease) or the admission was already settled. */
  recorded: boolean;
  /** Thresholds this settlement crossed first (each is reported once per budget and period across all instances). */
  thresholdCrossings: BudgetThresholdCrossing[];
}

/** An admitted call. Call exactly one of `settle` or `release`; later calls are no-ops. */
export interface Admission {
  /** Unique id of the admission (names its reservations and lease in the store). */
  readonly id: string;
  /** True when the store was unreachable and the call was let through by the failure policy. */
  readonly degraded: boolean;
  /** Micro-USD reserved on each applicable hard budget (0 without hard budgets). */
  readonly reservedMicros: number;
  /** Ids of the hard budgets holding a reservation. */
  readonly hardBudgetIds: readonly string[];
  /** Period key of each applicable budget at admission (spend is recorded there, even if settled after the period ended). */
  readonly budgetPeriodKeys: Readonly<Record<string, string>>;
  /** Converts the reservations into the real cost, corrects token counts, frees the concurrency slot. */
  settle(actual: ActualUsage): Promise<SettleResult>;
  /** The call failed before costing anything: drops reservations and tokens, frees the slot (the request still counts). */
  release(): Promise<SettleResult>;
}

/** Spend of a budget's current period, as admission counts it. */
export interface BudgetUsage {
  periodKey: string;
  /** Recorded spend of the period (seeded) plus what was settled since: the `spent_micros` of a refusal. */
  spentMicros: number;
  /** Reservations of calls in flight: the `reserved_micros` of a refusal. */
  reservedMicros: number;
}

/** A rate limit's current window, as admission counts it. */
export interface RateLimitUsage {
  /** Admitted calls in the sliding window (refused calls are not counted). */
  requests: number;
  /** Tokens of the admitted calls in the window (estimates until they settle). */
  tokens: number;
  /** Calls in flight (concurrency slots held). */
  concurrent: number;
}

/** Admission control over budgets and rate limits. See {@link createAdmissionController}. */
export interface AdmissionController {
  /**
   * Checks every applicable rate limit and hard budget in one atomic store operation and
   * records the call (request, estimated tokens, concurrency slot, reservations) when all pass.
   * @throws GatewayError `gateway_rate_limit_exceeded` (429, `retryAfter` whole seconds >= 1),
   *   `hard_budget_exceeded` (424), `hard_budget_decision_unbounded` (424),
   *   `service_unavailable` (503, store down under a `closed` policy).
   */
  admit(input: AdmitInput): Promise<Admission>;
  /** `admit` with `isDecision: true`. */
  admitDecision(input: Omit<AdmitInput, "isDecision">): Promise<Admission>;
  /** Current spend of a budget (for dashboards and tests); seeds its counter from recorded usage when missing. */
  readBudgetUsage(budget: BudgetRule): Promise<BudgetUsage>;
  /**
   * {@link readBudgetUsage} of several budgets, in their order, with one store read (one Redis
   * pipeline) and, when some counters are missing, their seeds started together and one more read.
   */
  readBudgetUsages(budgets: readonly BudgetRule[]): Promise<BudgetUsage[]>;
  /** Current window of a rate limit, from the limiter's own counters. */
  readRateLimitUsage(rule: RateLimitRule): Promise<RateLimitUsage>;
  /** {@link readRateLimitUsage} of several rate limits, in their order, read together like {@link readBudgetUsages}. */
  readRateLimitUsages(rules: readonly RateLimitRule[]): Promise<RateLimitUsage[]>;
}

const defaultLeaseMs = 15 * 60_000;
const defaultExpiryMarginMs = 60 * 60_000;
const noCrossings: BudgetThresholdCrossing[] = [];

interface SpendTarget {
  budget: BudgetRule;
  step: SpendStep;
  thresholds: number[];
  hard: boolean;
}

/**
 * Creates the admission controller used by the pipeline: one store round trip per admission
 * and one per settlement.
 *
 * @example
 * const controller = createAdmissionController({ store: createMemoryStore() });
 * const admission = await controller.admit({ organizationId, projectId, apiKeyId, teamId: null,
 *   budgets, rateLimits, estimatedCostMicros: 1200, estimatedTokens: 900 });
 * const { thresholdCrossings } = await admission.settle({ costMicros: 800, tokens: 640 });
 */
export function createAdmissionController(settings: AdmissionControllerSettings): AdmissionController {
  const store = settings.store;
  const clock = store.clock;
  const hardBudgetPolicy = settings.onRedisError?.hardBudgets ?? "closed";
  const rateLimitPolicy = settings.onRedisError?.rateLimits ?? "open";
  const defaultLease = positive(settings.leaseMs ?? defaultLeaseMs, "leaseMs");
  const expiryMargin = Math.max(0, settings.expiryMarginMs ?? defaultExpiryMarginMs);
  const reportError = settings.onStoreError ?? (() => {});
  const periodOf = createPeriodCache();
  const loadRecordedSpend = settings.loadRecordedSpend ?? null;
  /** Seeds in progress in this instance, per counter key: concurrent admissions share one load. */
  const pendingSeeds = new Map<string, Promise<SeedOutcome>>();
  const loadRecordedTokens = settings.loadRecordedTokens ?? null;
  const pendingWindowSeeds = new Map<string, Promise<unknown>>();
  const instanceTag = randomBytes(6).toString("base64url");
  let sequence = 0;

  async function admit(input: AdmitInput): Promise<Admission> {
    const now = clock();
    const leaseMs = input.leaseMs === undefined ? defaultLease : positive(input.leaseMs, "leaseMs");
    const estimatedCost = nonNegativeInteger(input.estimatedCostMicros, "estimatedCostMicros");
    const estimatedTokens = nonNegativeInteger(input.estimatedTokens, "estimatedTokens");

    const spendTargets: SpendTarget[] = [];
    const reservations: ReservationStep[] = [];
    const reservedBudgets: BudgetRule[] = [];
    const budgetPeriodKeys: Record<string, string> = {};
    for (const budget of input.budgets) {
      if (!budgetAppliesTo(budget, input)) continue;
      const hard = budget.mode === "hard";
      if (hard && input.isDecision) {
        throw new GatewayError("hard_budget_decision_unbounded", {
          details: { budget_id: budget.id, scope: budget.scope },
        });
      }
      const window = periodOf(budget.period, now);
      const key = budgetCounterKey(budget, window.key);
      const expiresAt = window.endsAt === null ? null : window.endsAt + leaseMs + expiryMargin;
      budgetPeriodKeys[budget.id] = window.key;
      const thresholds = validThresholds(budget.thresholds);
      spendTargets.push({
        budget,
        hard,
        thresholds,
        step: { key, amountMicros: 0, expiresAt, thresholds: thresholdSteps(thresholds, budget.amountMicros) },
      });
      if (hard) {
        reservations.push({ key, limitMicros: budget.amountMicros, amountMicros: estimatedCost, expiresAt });
        reservedBudgets.push(budget);
      }
    }

    const requestLimits: RequestLimitStep[] = [];
    const tokenLimits: TokenLimitStep[] = [];
    const concurrencyLimits: ConcurrencyLimitStep[] = [];
    const requestRules: RateLimitRule[] = [];
    const tokenRules: RateLimitRule[] = [];
    const concurrencyRules: RateLimitRule[] = [];
    for (const rule of input.rateLimits) {
      if (!rateLimitAppliesTo(rule, input)) continue;
      const windowMs = Math.max(1, Math.floor(rule.windowSeconds)) * 1000;
      if (rule.requestsPerWindow !== null && rule.requestsPerWindow !== undefined) {
        requestLimits.push({ key: `r:${rule.id}:q`, limit: Math.max(0, Math.floor(rule.requestsPerWindow)), windowMs });
        requestRules.push(rule);
      }
      if (rule.tokensPerWindow !== null && rule.tokensPerWindow !== undefined) {
        tokenLimits.push({
          key: `r:${rule.id}:t`,
          limit: Math.max(0, Math.floor(rule.tokensPerWindow)),
          windowMs,
          tokens: estimatedTokens,
          rebuild: loadRecordedTokens !== null && windowMs >= rebuiltTokenWindowMs,
        });
        tokenRules.push(rule);
      }
      if (rule.concurrency !== null && rule.concurrency !== undefined) {
        concurrencyLimits.push({ key: `r:${rule.id}:c`, limit: Math.max(0, Math.floor(rule.concurrency)) });
        concurrencyRules.push(rule);
      }
    }

    sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
    const admissionId = `${instanceTag}.${sequence.toString(36)}`;
    const plan: AdmissionPlan = {
      admissionId,
      now,
      leaseExpiresAt: now + leaseMs,
      reservations,
      requestLimits,
      tokenLimits,
      concurrencyLimits,
    };

    let degraded = false;
    const needsStore = reservations.length + requestLimits.length + tokenLimits.length + concurrencyLimits.length > 0;
    if (needsStore) {
      let outcome;
      try {
        outcome = await store.admit(plan);
        if (!outcome.admitted && outcome.kind === "unseeded") {
          const seeds: Promise<unknown>[] = [];
          for (const index of outcome.indexes) {
            const step = reservations[index]!;
            seeds.push(seedCounter(reservedBudgets[index]!, step.key, step.expiresAt, now));
          }
          for (const index of outcome.tokenIndexes) seeds.push(seedTokenWindow(tokenRules[index]!, tokenLimits[index]!, now));
          await Promise.all(seeds);
          outcome = await store.admit(plan);
          if (!outcome.admitted && outcome.kind === "unseeded") throw new Error("A counter lost its seed again during admission.");
        }
      } catch (error) {
        reportError(error, { operation: "admit" });
        const rateLimited = requestLimits.length + tokenLimits.length + concurrencyLimits.length > 0;
        if ((reservations.length > 0 && hardBudgetPolicy === "closed") || (rateLimited && rateLimitPolicy === "closed")) {
          throw new GatewayError("service_unavailable", {
            message: "Budget and rate-limit counters are temporarily unavailable.",
            retryAfter: 1,
            cause: error,
          });
        }
        degraded = true;
      }
      if (outcome && !outcome.admitted && outcome.kind !== "unseeded") {
        if (outcome.kind === "budget") {
          const budget = reservedBudgets[outcome.index]!;
          throw new GatewayError("hard_budget_exceeded", {
            message: `Hard budget ${budget.id} does not allow this call.`,
            details: {
              budget_id: budget.id,
              scope: budget.scope,
              period: budget.period,
              period_key: budgetPeriodKeys[budget.id],
              limit_micros: budget.amountMicros,
              spent_micros: outcome.spentMicros,
              reserved_micros: outcome.reservedMicros,
              requested_micros: estimatedCost,
            },
          });
        }
        const rules = outcome.kind === "requests" ? requestRules : outcome.kind === "tokens" ? tokenRules : concurrencyRules;
        const rule = rules[outcome.index]!;
        throw new GatewayError("gateway_rate_limit_exceeded", {
          retryAfter: Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)),
          details: { limit_id: rule.id, scope: rule.scope, kind: outcome.kind },
        });
      }
    }

    let finished = false;
    async function finish(actual: ActualUsage | null): Promise<SettleResult> {
      if (finished) return { recorded: false, thresholdCrossings: noCrossings };
      finished = true;
      const costMicros = actual === null ? 0 : nonNegativeInteger(actual.costMicros, "costMicros");
      const tokens = actual === null ? 0 : nonNegativeInteger(actual.tokens, "tokens");
      const spends: SpendStep[] = [];
      const spendOwners: SpendTarget[] = [];
      for (const target of spendTargets) {
        // Soft budgets have nothing to undo when nothing was spent.
        if (costMicros === 0 && !target.hard) continue;
        spends.push(actual === null ? { ...target.step, thresholds: [] } : { ...target.step, amountMicros: costMicros });
        spendOwners.push(target);
      }
      const tokenCorrections = tokenLimits.map((step) => ({ key: step.key, tokens }));
      const concurrencyReleases = concurrencyLimits.map((step) => ({ key: step.key }));
      if (spends.length + tokenCorrections.length + concurrencyReleases.length === 0) {
        return { recorded: true, thresholdCrossings: noCrossings };
      }
      try {
        const outcome = await store.settle({ admissionId, now: clock(), spends, tokenCorrections, concurrencyReleases });
        let crossed = outcome.crossed;
        // A counter first touched by a settle (soft budgets are not checked at admission): seed it
        // now; thresholds the settled spend reached on top of the recorded spend are reported once.
        if (outcome.unseeded.length > 0) {
          crossed = [...crossed];
          for (const spendIndex of outcome.unseeded) {
            const target = spendOwners[spendIndex]!;
            try {
              const seeded = await seedCounter(target.budget, target.step.key, target.step.expiresAt, now);
              if (seeded !== null) for (const crossing of seeded.crossed) crossed.push({ spendIndex, ...crossing });
            } catch (error) {
              reportError(error, { operation: "seed" });
            }
          }
        }
        if (crossed.length === 0) return { recorded: true, thresholdCrossings: noCrossings };
        const thresholdCrossings = crossed.map((crossing): BudgetThresholdCrossing => {
          const target = spendOwners[crossing.spendIndex]!;
          const budget = target.budget;
          return {
            budgetId: budget.id,
            budgetName: budget.name ?? null,
            scope: budget.scope,
            scopeId: budget.scopeId,
            mode: budget.mode,
            period: budget.period,
            periodKey: budgetPeriodKeys[budget.id]!,
            threshold: target.thresholds[crossing.thresholdIndex]!,
            thresholdMicros: target.step.thresholds[crossing.thresholdIndex]!.micros,
            amountMicros: budget.amountMicros,
            spentMicros: crossing.spentMicros,
          };
        });
        return { recorded: true, thresholdCrossings };
      } catch (error) {
        reportError(error, { operation: actual === null ? "release" : "settle" });
        return { recorded: false, thresholdCrossings: noCrossings };
      }
    }

    return {
      id: admissionId,
      degraded,
      reservedMicros: reservations.length > 0 && !degraded ? estimatedCost : 0,
      hardBudgetIds: degraded ? [] : reservedBudgets.map((budget) => budget.id),
      budgetPeriodKeys,
      settle: (actual) => finish(actual),
      release: () => finish(null),
    };
  }

  /**
   * Seeds a missing counter from the recorded spend of the period of `timeMs`, once per key in
   * this instance at a time (callers that join a seed in progress get null, so its threshold
   * crossings are reported once); the store's seed is a no-op when another instance seeded first.
   */
  function seedCounter(budget: BudgetRule, key: string, expiresAt: number | null, timeMs: number): Promise<SeedOutcome | null> {
    const pending = pendingSeeds.get(key);
    if (pending !== undefined) return pending.then(() => null);
    const seeding = (async () => {
      const window = periodOf(budget.period, timeMs);
      const recorded = loadRecordedSpend === null ? 0 : await loadRecordedSpend(budget, window);
      return store.seedBudget({
        key,
        amountMicros: nonNegativeInteger(recorded, "recorded spend"),
        expiresAt,
        thresholds: thresholdSteps(validThresholds(budget.thresholds), budget.amountMicros),
        now: clock(),
      });
    })().finally(() => pendingSeeds.delete(key));
    pendingSeeds.set(key, seeding);
    return seeding;
  }

  /** Rebuilds a missing token window from recorded usage, once per key in this instance at a time. */
  function seedTokenWindow(rule: RateLimitRule, step: TokenLimitStep, timeMs: number): Promise<unknown> {
    const pending = pendingWindowSeeds.get(step.key);
    if (pending !== undefined) return pending;
    const seeding = (async () => {
      // Calls from before the limit existed were not admitted by it.
      const createdAt = rule.createdAt instanceof Date ? rule.createdAt.getTime() : 0;
      const buckets = await loadRecordedTokens!(rule, Math.max(timeMs - step.windowMs, createdAt));
      const entries = buckets.map((bucket) => ({ id: `s:${bucket.time}`, time: bucket.time, tokens: nonNegativeInteger(bucket.tokens, "recorded tokens") }));
      return store.seedTokenWindow({ key: step.key, windowMs: step.windowMs, now: clock(), entries });
    })().finally(() => pendingWindowSeeds.delete(step.key));
    pendingWindowSeeds.set(step.key, seeding);
    return seeding;
  }

  async function readBudgetUsages(budgets: readonly BudgetRule[]): Promise<BudgetUsage[]> {
    const now = clock();
    const windows = budgets.map((budget) => periodOf(budget.period, now));
    const keys = budgets.map((budget, index) => budgetCounterKey(budget, windows[index]!.key));
    const states = await store.readBudgets(keys);
    const unseeded: number[] = [];
    for (let index = 0; index < states.length; index++) if (!states[index]!.seeded) unseeded.push(index);
    if (unseeded.length > 0) {
      await Promise.all(
        unseeded.map((index) => {
          const endsAt = windows[index]!.endsAt;
          return seedCounter(budgets[index]!, keys[index]!, endsAt === null ? null : endsAt + defaultLease + expiryMargin, now);
        }),
      );
      const seeded = await store.readBudgets(unseeded.map((index) => keys[index]!));
      for (let position = 0; position < unseeded.length; position++) states[unseeded[position]!] = seeded[position]!;
    }
    return states.map((state, index) => ({ periodKey: windows[index]!.key, spentMicros: state.spentMicros, reservedMicros: state.reservedMicros }));
  }

  async function readRateLimitUsages(rules: readonly RateLimitRule[]): Promise<RateLimitUsage[]> {
    const now = clock();
    const steps = rules.map((rule) => ({ ...rateLimitCounterKeys(rule.id), windowMs: Math.max(1, Math.floor(rule.windowSeconds)) * 1000, now }));
    const states = await store.readRateLimits(steps);
    // A token window that admission would rebuild is rebuilt here too, so the figure is the one admission uses.
    const unseeded: number[] = [];
    if (loadRecordedTokens !== null) {
      for (let index = 0; index < rules.length; index++) {
        const tokensPerWindow = rules[index]!.tokensPerWindow;
        if (steps[index]!.windowMs >= rebuiltTokenWindowMs && tokensPerWindow !== null && tokensPerWindow !== undefined && !states[index]!.tokensSeeded) unseeded.push(index);
      }
    }
    if (unseeded.length > 0) {
      await Promise.all(
        unseeded.map((index) => seedTokenWindow(rules[index]!, { key: steps[index]!.tokenKey, limit: 0, windowMs: steps[index]!.windowMs, tokens: 0, rebuild: true }, now)),
      );
      const later = clock();
      const seeded = await store.readRateLimits(unseeded.map((index) => ({ ...steps[index]!, now: later })));
      for (let position = 0; position < unseeded.length; position++) states[unseeded[position]!] = seeded[position]!;
    }
    return states.map((state) => ({ requests: state.requests, tokens: state.tokens, concurrent: state.concurrent }));
  }

  return {
    admit,
    admitDecision: (input) => admit({ ...input, isDecision: true }),
    readBudgetUsage: async (budget) => (await readBudgetUsages([budget]))[0]!,
    readBudgetUsages,
    readRateLimitUsage: async (rule) => (await readRateLimitUsages([rule]))[0]!,
    readRateLimitUsages,
  };
}

function validThresholds(thresholds: readonly number[]): number[] {
  const valid: number[] = [];
  for (const threshold of thresholds) if (Number.isFinite(threshold) && threshold >= 0) valid.push(threshold);
  return valid;
}

function thresholdSteps(thresholds: readonly number[], amountMicros: number): ThresholdStep[] {
  // Rounded to 1/1000 micro first so 0.7 × 100 is 70, not 71.
  return thresholds.map((threshold) => ({
    name: String(threshold),
    micros: Math.ceil(Math.round(threshold * amountMicros * 1000) / 1000),
  }));
}

function nonNegativeInteger(value: number, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number >= 0.`);
  }
  return Math.ceil(value);
}

function positive(value: number, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a number > 0.`);
  return value;
}
