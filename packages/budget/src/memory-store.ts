import type {
  AdmissionPlan,
  AdmissionPlanOutcome,
  BudgetCounterState,
  Clock,
  CounterStore,
  RateLimitCounterState,
  RateLimitReadStep,
  SeedOutcome,
  SettlementPlan,
  SettlementPlanOutcome,
} from "./counter-store.js";

/** Settings of {@link createMemoryStore}. */
export interface MemoryStoreSettings {
  /** Time source (epoch ms); default `Date.now`. */
  clock?: Clock;
  /** Expired counters are swept every this many operations (they are also dropped lazily on access). Default 10000. */
  sweepEveryOperations?: number;
}

interface BudgetCounter {
  spent: number;
  reserved: number;
  /** admission id -> reservation */
  reservations: Map<string, { amount: number; deadline: number }>;
  /** Earliest reservation deadline; expired reservations are only looked for once it passed. */
  earliestDeadline: number;
  thresholds: Set<string>;
  expiresAt: number | null;
  /** Set once the recorded spend of the period was added (`seedBudget`). */
  seeded: boolean;
}

interface WindowLog {
  /** admission id -> entry, in admission order (oldest first). */
  entries: Map<string, { time: number; tokens: number }>;
  sum: number;
  expiresAt: number;
  /** Set once the window was rebuilt from recorded usage (`seedTokenWindow`). */
  seeded: boolean;
}

interface LeaseSet {
  /** admission id -> lease deadline */
  leases: Map<string, number>;
  expiresAt: number;
}

const concurrencyRetryAfterMs = 1000;
const noIndexes: number[] = [];

/**
 * An in-process {@link CounterStore}: the embedded default for a single gateway instance.
 * Each operation runs in one synchronous section, so it is atomic with respect to every other
 * call in the process. Counters expire like their Redis counterparts (checked lazily and by a
 * periodic sweep), so memory stays bounded by the live periods and windows.
 */
export function createMemoryStore(settings: MemoryStoreSettings = {}): CounterStore {
  const clock = settings.clock ?? Date.now;
  const sweepEvery = settings.sweepEveryOperations ?? 10_000;
  const budgets = new Map<string, BudgetCounter>();
  const logs = new Map<string, WindowLog>();
  const leaseSets = new Map<string, LeaseSet>();
  let operations = 0;

  function tick(now: number): void {
    operations += 1;
    if (operations < sweepEvery) return;
    operations = 0;
    for (const [key, counter] of budgets) if (counter.expiresAt !== null && now >= counter.expiresAt) budgets.delete(key);
    for (const [key, log] of logs) if (now >= log.expiresAt) logs.delete(key);
    for (const [key, set] of leaseSets) if (now >= set.expiresAt) leaseSets.delete(key);
  }

  function budgetCounter(key: string, now: number): BudgetCounter {
    let counter = budgets.get(key);
    if (counter && counter.expiresAt !== null && now >= counter.expiresAt) counter = undefined;
    if (!counter) {
      counter = {
        spent: 0,
        reserved: 0,
        reservations: new Map(),
        earliestDeadline: Infinity,
        thresholds: new Set(),
        expiresAt: now,
        seeded: false,
      };
      budgets.set(key, counter);
    }
    if (now >= counter.earliestDeadline) reclaimExpiredReservations(counter, now);
    return counter;
  }

  function windowLog(key: string, now: number, windowMs: number): WindowLog {
    let log = logs.get(key);
    if (log && now >= log.expiresAt) log = undefined;
    if (!log) {
      log = { entries: new Map(), sum: 0, expiresAt: now + windowMs, seeded: false };
      logs.set(key, log);
    }
    const cutoff = now - windowMs;
    for (const [id, entry] of log.entries) {
      if (entry.time > cutoff) break;
      log.sum -= entry.tokens;
      log.entries.delete(id);
    }
    return log;
  }

  function leaseSet(key: string, now: number): LeaseSet {
    let set = leaseSets.get(key);
    if (set && now >= set.expiresAt) set = undefined;
    if (!set) {
      set = { leases: new Map(), expiresAt: now };
      leaseSets.set(key, set);
    }
    return set;
  }

  function admitSync(plan: AdmissionPlan): AdmissionPlanOutcome {
    const now = plan.now;
    tick(now);
    // Phase 1: check everything; nothing is recorded unless every step passes.
    for (let index = 0; index < plan.requestLimits.length; index++) {
      const step = plan.requestLimits[index]!;
      const log = windowLog(step.key, now, step.windowMs);
      if (log.entries.size + 1 > step.limit) {
        return { admitted: false, kind: "requests", index, retryAfterMs: requestRetryAfterMs(log, step.limit, step.windowMs, now) };
      }
    }
    let unseededTokens: number[] | null = null;
    for (let index = 0; index < plan.tokenLimits.length; index++) {
      const step = plan.tokenLimits[index]!;
      const log = windowLog(step.key, now, step.windowMs);
      if (step.rebuild && !log.seeded) {
        (unseededTokens ??= []).push(index);
        continue;
      }
      if (log.sum + step.tokens > step.limit) {
        return { admitted: false, kind: "tokens", index, retryAfterMs: tokenRetryAfterMs(log, step.limit, step.tokens, step.windowMs, now) };
      }
    }
    for (let index = 0; index < plan.concurrencyLimits.length; index++) {
      const step = plan.concurrencyLimits[index]!;
      const set = leaseSet(step.key, now);
      if (set.leases.size + 1 > step.limit) {
        for (const [id, deadline] of set.leases) if (deadline <= now) set.leases.delete(id);
        if (set.leases.size + 1 > step.limit) {
          return { admitted: false, kind: "concurrency", index, retryAfterMs: concurrencyRetryAfterMs };
        }
      }
    }
    let unseeded: number[] | null = null;
    for (let index = 0; index < plan.reservations.length; index++) {
      const step = plan.reservations[index]!;
      const counter = budgetCounter(step.key, now);
      if (!counter.seeded) {
        (unseeded ??= []).push(index);
        continue;
      }
      if (counter.spent + counter.reserved + step.amountMicros > step.limitMicros) {
        return { admitted: false, kind: "budget", index, spentMicros: counter.spent, reservedMicros: counter.reserved };
      }
    }
    if (unseeded !== null || unseededTokens !== null) {
      return { admitted: false, kind: "unseeded", indexes: unseeded ?? noIndexes, tokenIndexes: unseededTokens ?? noIndexes };
    }
    // Phase 2: record.
    for (const step of plan.requestLimits) {
      const log = logs.get(step.key)!;
      log.entries.set(plan.admissionId, { time: now, tokens: 0 });
      log.expiresAt = Math.max(log.expiresAt, now + step.windowMs);
    }
    for (const step of plan.tokenLimits) {
      const log = logs.get(step.key)!;
      log.entries.set(plan.admissionId, { time: now, tokens: step.tokens });
      log.sum += step.tokens;
      log.expiresAt = Math.max(log.expiresAt, now + step.windowMs);
    }
    for (const step of plan.concurrencyLimits) {
      const set = leaseSets.get(step.key)!;
      set.leases.set(plan.admissionId, plan.leaseExpiresAt);
      set.expiresAt = Math.max(set.expiresAt, plan.leaseExpiresAt);
    }
    for (const step of plan.reservations) {
      const counter = budgets.get(step.key)!;
      counter.reservations.set(plan.admissionId, { amount: step.amountMicros, deadline: plan.leaseExpiresAt });
      counter.reserved += step.amountMicros;
      counter.earliestDeadline = Math.min(counter.earliestDeadline, plan.leaseExpiresAt);
      extendBudget(counter, step.expiresAt);
    }
    return { admitted: true };
  }

  function settleSync(plan: SettlementPlan): SettlementPlanOutcome {
    const now = plan.now;
    tick(now);
    const crossed: SettlementPlanOutcome["crossed"] = [];
    let unseeded: number[] | null = null;
    for (let spendIndex = 0; spendIndex < plan.spends.length; spendIndex++) {
      const step = plan.spends[spendIndex]!;
      const counter = budgetCounter(step.key, now);
      const reservation = counter.reservations.get(plan.admissionId);
      if (reservation) {
        counter.reservations.delete(plan.admissionId);
        counter.reserved -= reservation.amount;
      }
      counter.spent += step.amountMicros;
      extendBudget(counter, step.expiresAt);
      if (!counter.seeded) {
        (unseeded ??= []).push(spendIndex);
        continue;
      }
      for (let thresholdIndex = 0; thresholdIndex < step.thresholds.length; thresholdIndex++) {
        const threshold = step.thresholds[thresholdIndex]!;
        if (counter.spent >= threshold.micros && !counter.thresholds.has(threshold.name)) {
          counter.thresholds.add(threshold.name);
          crossed.push({ spendIndex, thresholdIndex, spentMicros: counter.spent });
        }
      }
    }
    for (const correction of plan.tokenCorrections) {
      const log = logs.get(correction.key);
      const entry = log?.entries.get(plan.admissionId);
      if (log && entry) {
        log.sum += correction.tokens - entry.tokens;
        entry.tokens = correction.tokens;
      }
    }
    for (const release of plan.concurrencyReleases) leaseSets.get(release.key)?.leases.delete(plan.admissionId);
    return { crossed, unseeded: unseeded ?? noIndexes };
  }

  /** A rate limit's counters as the admission checks them (admitted calls only). */
  function readRateLimitSync(step: RateLimitReadStep): RateLimitCounterState {
    const requests = logs.has(step.requestKey) ? windowLog(step.requestKey, step.now, step.windowMs).entries.size : 0;
    const tokenLog = logs.has(step.tokenKey) ? windowLog(step.tokenKey, step.now, step.windowMs) : null;
    const tokens = tokenLog === null ? 0 : tokenLog.sum;
    let concurrent = 0;
    const set = leaseSets.get(step.concurrencyKey);
    if (set && step.now < set.expiresAt) for (const deadline of set.leases.values()) if (deadline > step.now) concurrent += 1;
    return { requests, tokens, concurrent, tokensSeeded: tokenLog !== null && tokenLog.seeded };
  }

  return {
    clock,
    async admit(plan) {
      return admitSync(plan);
    },
    async settle(plan) {
      return settleSync(plan);
    },
    async readBudgets(keys) {
      const now = clock();
      return keys.map((key) => {
        const counter = budgetCounter(key, now);
        return { spentMicros: counter.spent, reservedMicros: counter.reserved, seeded: counter.seeded } satisfies BudgetCounterState;
      });
    },
    async seedBudget(step) {
      const counter = budgetCounter(step.key, step.now);
      if (counter.seeded) return { seeded: false, crossed: [] } satisfies SeedOutcome;
      counter.seeded = true;
      counter.spent += step.amountMicros;
      const crossed: SeedOutcome["crossed"] = [];
      for (let thresholdIndex = 0; thresholdIndex < step.thresholds.length; thresholdIndex++) {
        const threshold = step.thresholds[thresholdIndex]!;
        if (counter.spent < threshold.micros || counter.thresholds.has(threshold.name)) continue;
        counter.thresholds.add(threshold.name);
        if (step.amountMicros < threshold.micros) crossed.push({ thresholdIndex, spentMicros: counter.spent });
      }
      extendBudget(counter, step.expiresAt);
      return { seeded: true, crossed };
    },
    async seedTokenWindow(step) {
      const log = windowLog(step.key, step.now, step.windowMs);
      if (log.seeded) return false;
      log.seeded = true;
      // Recorded entries are older than any live one: they go first, so the window trims them first.
      const entries = new Map<string, { time: number; tokens: number }>();
      for (const entry of step.entries) {
        entries.set(entry.id, { time: entry.time, tokens: entry.tokens });
        log.sum += entry.tokens;
      }
      for (const [id, entry] of log.entries) entries.set(id, entry);
      log.entries = entries;
      log.expiresAt = Math.max(log.expiresAt, step.now + step.windowMs);
      return true;
    },
    async readRateLimits(steps) {
      return steps.map(readRateLimitSync);
    },
    async close() {
      budgets.clear();
      logs.clear();
      leaseSets.clear();
    },
  };
}

function reclaimExpiredReservations(counter: BudgetCounter, now: number): void {
  let earliest = Infinity;
  for (const [id, reservation] of counter.reservations) {
    if (reservation.deadline <= now) {
      counter.reservations.delete(id);
      counter.reserved -= reservation.amount;
    } else if (reservation.deadline < earliest) {
      earliest = reservation.deadline;
    }
  }
  counter.earliestDeadline = earliest;
}

function extendBudget(counter: BudgetCounter, expiresAt: number | null): void {
  if (counter.expiresAt === null) return;
  counter.expiresAt = expiresAt === null ? null : Math.max(counter.expiresAt, expiresAt);
}

function requestRetryAfterMs(log: WindowLog, limit: number, windowMs: number, now: number): number {
  if (limit <= 0) return windowMs;
  // The (count - limit + 1)-th oldest entry must leave the window before one more fits.
  let position = log.entries.size - limit;
  for (const entry of log.entries.values()) {
    if (position === 0) return entry.time + windowMs - now;
    position -= 1;
  }
  return windowMs;
}

function tokenRetryAfterMs(log: WindowLog, limit: number, tokens: number, windowMs: number, now: number): number {
  if (tokens > limit) return windowMs;
  let remaining = log.sum;
  for (const entry of log.entries.values()) {
    remaining -= entry.tokens;
    if (remaining + tokens <= limit) return entry.time + windowMs - now;
  }
  return windowMs;
}
