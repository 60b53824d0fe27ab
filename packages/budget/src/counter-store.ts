/** A time source: epoch milliseconds. Injected for tests; defaults to `Date.now`. */
export type Clock = () => number;

/** One hard-budget reservation of an {@link AdmissionPlan}. */
export interface ReservationStep {
  /** Counter key (without the store's prefix), one per budget and period. */
  key: string;
  /** The hard budget's amount. */
  limitMicros: number;
  /** Upper bound of the call's cost to reserve. */
  amountMicros: number;
  /** When the counter may be dropped (epoch ms), or `null` to keep it forever. */
  expiresAt: number | null;
}

/** One requests-per-window check of an {@link AdmissionPlan}. */
export interface RequestLimitStep {
  key: string;
  limit: number;
  windowMs: number;
}

/** One tokens-per-window check of an {@link AdmissionPlan}. */
export interface TokenLimitStep {
  key: string;
  limit: number;
  windowMs: number;
  /** Estimated tokens of the call, counted until settle corrects them. */
  tokens: number;
  /**
   * The window is rebuilt from recorded usage when its log is missing (windows of an hour or
   * more, with a loader): a log without its seeded marker is reported `unseeded`, not read as empty.
   */
  rebuild: boolean;
}

/** One concurrency-slot acquisition of an {@link AdmissionPlan}. */
export interface ConcurrencyLimitStep {
  key: string;
  limit: number;
}

/**
 * Everything one admission checks and records, applied atomically and all-or-nothing: either
 * every step is recorded, or none is and the first failing step is reported.
 */
export interface AdmissionPlan {
  /** Unique per admission; names the reservation, log entries and lease. */
  admissionId: string;
  /** Epoch ms, from the store's clock. */
  now: number;
  /** Deadline of the reservations and concurrency lease (epoch ms); after it they are ignored and reclaimed. */
  leaseExpiresAt: number;
  reservations: readonly ReservationStep[];
  requestLimits: readonly RequestLimitStep[];
  tokenLimits: readonly TokenLimitStep[];
  concurrencyLimits: readonly ConcurrencyLimitStep[];
}

/**
 * The result of {@link CounterStore.admit}. `index` points into the plan's list of that kind.
 * `unseeded`: these reservations' budget counters (`indexes`) or token windows marked `rebuild`
 * (`tokenIndexes`) were never seeded from recorded usage (new, a restarted process, a Redis that
 * lost its keys): nothing was recorded; seed them ({@link CounterStore.seedBudget},
 * {@link CounterStore.seedTokenWindow}) and admit again. A missing counter is never read as 0.
 */
export type AdmissionPlanOutcome =
  | { admitted: true }
  | { admitted: false; kind: "budget"; index: number; spentMicros: number; reservedMicros: number }
  | { admitted: false; kind: "requests" | "tokens" | "concurrency"; index: number; retryAfterMs: number }
  | { admitted: false; kind: "unseeded"; indexes: number[]; tokenIndexes: number[] };

/** A soft/hard budget threshold to detect on settle. */
export interface ThresholdStep {
  /** Stable name of the threshold within the period, e.g. `"0.8"`. */
  name: string;
  /** Spend at which it is crossed. */
  micros: number;
}

/** One budget spend of a {@link SettlementPlan}; also removes the admission's reservation there, if any. */
export interface SpendStep {
  key: string;
  amountMicros: number;
  expiresAt: number | null;
  thresholds: readonly ThresholdStep[];
}

/** Settles an admission atomically: records spend, drops its reservations, corrects tokens, frees its lease. */
export interface SettlementPlan {
  admissionId: string;
  now: number;
  spends: readonly SpendStep[];
  /** Replace the admission's estimated tokens with these actual tokens (ignored once the entry left the window). */
  tokenCorrections: readonly { key: string; tokens: number }[];
  concurrencyReleases: readonly { key: string }[];
}

/** Thresholds crossed by a settlement: each one is reported by exactly one settlement per counter. */
export interface SettlementPlanOutcome {
  crossed: { spendIndex: number; thresholdIndex: number; spentMicros: number }[];
  /**
   * Spend indexes whose counter was not seeded yet: the spend was added (it is not lost when the
   * counter is seeded later) but no threshold was checked there; seed them.
   */
  unseeded: number[];
}

/** A budget counter as read by {@link CounterStore.readBudgets}. */
export interface BudgetCounterState {
  spentMicros: number;
  /** Sum of live (unexpired, unsettled) reservations. */
  reservedMicros: number;
  /** False when the counter was never seeded from recorded usage (its `spentMicros` is then only what was settled since). */
  seeded: boolean;
}

/** Seeds a budget counter from recorded usage; see {@link CounterStore.seedBudget}. */
export interface SeedStep {
  key: string;
  /** Recorded spend of the counter's period (added to what was settled into the counter before it was seeded). */
  amountMicros: number;
  expiresAt: number | null;
  /**
   * Thresholds the recorded spend alone reached are marked as crossed without being reported
   * (they were reported when that spend happened); those reached only with the spend settled
   * into the unseeded counter are reported in {@link SeedOutcome.crossed}.
   */
  thresholds: readonly ThresholdStep[];
  now: number;
}

/** The result of {@link CounterStore.seedBudget}. */
export interface SeedOutcome {
  /** False when the counter was already seeded (another instance or caller did it): nothing changed. */
  seeded: boolean;
  crossed: { thresholdIndex: number; spentMicros: number }[];
}

/** Rebuilds a token window from recorded usage; see {@link CounterStore.seedTokenWindow}. */
export interface TokenWindowSeedStep {
  key: string;
  windowMs: number;
  now: number;
  /** Recorded tokens of the window, oldest first, one entry per time bucket (`id` unique per bucket). */
  entries: readonly { id: string; time: number; tokens: number }[];
}

/** The keys of one rate limit, as read by {@link CounterStore.readRateLimits}. */
export interface RateLimitReadStep {
  requestKey: string;
  tokenKey: string;
  concurrencyKey: string;
  windowMs: number;
  now: number;
}

/** What a rate limit's counters hold now: admitted calls and their tokens in the sliding window, calls in flight. */
export interface RateLimitCounterState {
  requests: number;
  tokens: number;
  concurrent: number;
  /** Whether the token window carries the seeded marker (it was rebuilt from recorded usage). */
  tokensSeeded: boolean;
}

/**
 * The one interface of the counter stores ({@link createMemoryStore}, {@link createRedisStore}).
 * Every method is one atomic operation (a synchronous section in memory, one Lua script in
 * Redis). Stores throw when their backend is unreachable; the admission controller decides
 * what that means.
 */
export interface CounterStore {
  /** The store's time source; the admission controller uses it for periods and windows. */
  readonly clock: Clock;
  admit(plan: AdmissionPlan): Promise<AdmissionPlanOutcome>;
  settle(plan: SettlementPlan): Promise<SettlementPlanOutcome>;
  /**
   * Several budget counters in one operation (one Redis pipeline), in the order of `keys`: the
   * status page reads every budget of an organization at once.
   */
  readBudgets(keys: readonly string[]): Promise<BudgetCounterState[]>;
  /**
   * Adds the recorded spend to an unseeded counter and marks it seeded, atomically; a counter
   * already seeded (by another instance, or a concurrent caller) is left alone.
   */
  seedBudget(step: SeedStep): Promise<SeedOutcome>;
  /**
   * Adds recorded entries to an unseeded token window and marks it seeded, atomically; a window
   * already seeded is left alone. Returns whether this call seeded it.
   */
  seedTokenWindow(step: TokenWindowSeedStep): Promise<boolean>;
  /**
   * Rate limits' counters as the admission checks them (admitted calls only), several in one
   * operation (one Redis pipeline), in the order of `steps`.
   */
  readRateLimits(steps: readonly RateLimitReadStep[]): Promise<RateLimitCounterState[]>;
  /** Frees timers/handles owned by the store (never closes an injected Redis client). */
  close(): Promise<void>;
}
