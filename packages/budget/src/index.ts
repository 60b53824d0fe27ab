export { computeCostMicros, countUsageTokens } from "./compute-cost-micros.js";
export { estimateMaxCostMicros, resolveMaxOutputTokens, defaultFallbackMaxOutputTokens } from "./estimate-max-cost-micros.js";
export type { EstimateMaxCostInput } from "./estimate-max-cost-micros.js";
export { defaultPriceTable, defaultPriceTableDate } from "./default-price-table.js";
export { resolveModelPrice } from "./resolve-model-price.js";
export type { ResolveModelPriceInput } from "./resolve-model-price.js";
export type { BilledUsage } from "./compute-cost-micros.js";
export { periodKey, periodWindow } from "./period-key.js";
export type { BudgetPeriod, PeriodWindow } from "./period-key.js";
export { budgetAppliesTo, rateLimitAppliesTo, hasHardBudget, budgetCounterKey, rateLimitCounterKeys } from "./budget-rule.js";
export type { BudgetRule, BudgetScope, BudgetSpendReset, RateLimitRule, CallerScope } from "./budget-rule.js";
export { compileBudgetIndex } from "./compile-budget-index.js";
export type { BudgetIndex } from "./compile-budget-index.js";
export { createAdmissionController, rebuiltTokenWindowMs } from "./admission-controller.js";
export type {
  AdmissionController,
  AdmissionControllerSettings,
  StoreFailurePolicy,
  AdmitInput,
  Admission,
  ActualUsage,
  SettleResult,
  BudgetThresholdCrossing,
  BudgetUsage,
  RateLimitUsage,
  RecordedSpendLoader,
  RecordedTokensLoader,
} from "./admission-controller.js";
export { createMemoryStore } from "./memory-store.js";
export type { MemoryStoreSettings } from "./memory-store.js";
export { createRedisStore } from "./redis-store.js";
export type { RedisStoreSettings } from "./redis-store.js";
export type {
  Clock,
  CounterStore,
  AdmissionPlan,
  AdmissionPlanOutcome,
  ReservationStep,
  RequestLimitStep,
  TokenLimitStep,
  ConcurrencyLimitStep,
  SettlementPlan,
  SettlementPlanOutcome,
  SpendStep,
  ThresholdStep,
  BudgetCounterState,
  SeedStep,
  SeedOutcome,
  RateLimitReadStep,
  RateLimitCounterState,
  TokenWindowSeedStep,
} from "./counter-store.js";
export { boundCallCostMicros, boundOutputTokens } from "./bound-call-cost-micros.js";
export type { CallCostBoundInput } from "./bound-call-cost-micros.js";
export { imageTokenBound } from "./image-token-bound.js";
export type { ImageTokenBoundInput } from "./image-token-bound.js";
export { readImageSize } from "./read-image-size.js";
export type { ImageSize } from "./read-image-size.js";
