import { z } from "zod";

/**
 * The bounds of the control-plane values a user writes, in one place: the dashboard's request
 * schemas and the configuration file's schema are both built from these, so a value one of
 * them accepts the other accepts too, and nothing out of range reaches the database (where
 * PostgreSQL's integer columns would fail with a bare `Value out of range`).
 */

/** Longest rate-limit window: one day. */
export const maxRateLimitWindowSeconds = 86_400;
/** Largest `requestsPerWindow` / `tokensPerWindow` of a rate limit. */
export const maxRateLimitPerWindow = 1_000_000_000;
/** Largest concurrency limit. */
export const maxRateLimitConcurrency = 100_000;

/** A rate limit's window in seconds: 1 to {@link maxRateLimitWindowSeconds}. */
export const rateLimitWindowSecondsSchema = z.number().int().min(1).max(maxRateLimitWindowSeconds);
/** Requests or tokens per window: 1 to {@link maxRateLimitPerWindow}. */
export const rateLimitPerWindowSchema = z.number().int().min(1).max(maxRateLimitPerWindow);
/** Concurrent calls: 1 to {@link maxRateLimitConcurrency}. */
export const rateLimitConcurrencySchema = z.number().int().min(1).max(maxRateLimitConcurrency);

/** Largest budget amount in micro-USD (stored as BIGINT, answered as a JSON number). */
export const maxBudgetAmountMicros = Number.MAX_SAFE_INTEGER;
/** A budget amount in micro-USD: 1 to {@link maxBudgetAmountMicros}. */
export const budgetAmountMicrosSchema = z.number().int().min(1).max(maxBudgetAmountMicros);
/** A budget amount in USD (the configuration file's unit): one micro-USD up to {@link maxBudgetAmountMicros} micro-USD. */
export const budgetAmountUsdSchema = z
  .number()
  .min(0.000_001)
  .max(Math.floor(maxBudgetAmountMicros / 1_000_000));
/** A budget's notification points as fractions of the amount (above 0, at most 10), at most 20 of them. */
export const budgetThresholdsSchema = z.array(z.number().gt(0).max(10)).max(20);

/** Largest price per million tokens (USD). */
export const maxModelPricePerMillion = 1_000_000;
/** Largest `maxOutputTokens` / `contextWindow` of a model. */
export const maxModelTokens = 100_000_000;
const pricePerMillion = z.number().min(0).max(maxModelPricePerMillion);
const modelTokens = z.number().int().min(1).max(maxModelTokens);
/** The bounds of one model's price entry (`ModelPrice` of `@gateway/contracts`; camelCase fields). */
export const modelPriceBounds = {
  input: pricePerMillion,
  output: pricePerMillion,
  cacheRead: pricePerMillion.optional(),
  cacheWrite: pricePerMillion.optional(),
  maxOutputTokens: modelTokens.optional(),
  contextWindow: modelTokens.optional(),
} as const;

/** Largest number of targets of a route. */
export const maxRouteTargets = 20;
/** A route target's weight: 0 to 1,000,000. */
export const routeTargetWeightSchema = z.number().min(0).max(1_000_000);
/** Session affinity lifetime in seconds: 1 to 7 days. */
export const routeAffinityTtlSecondsSchema = z.number().int().min(1).max(604_800);
/** Attempts per route target (the first call and its retries): 1 to 10. */
export const routeRetryMaxAttemptsSchema = z.number().int().min(1).max(10);

/** Days of usage history (activity) a project keeps: 1 to 3650 (default 30). */
export const activityRetentionDaysSchema = z.number().int().min(1).max(3650);
/** Days captured content is kept: 1 to 3650 (default 7). */
export const contentRetentionDaysSchema = z.number().int().min(1).max(3650);
/** Captured bytes per call: 1 KiB to 4 MiB (default 65536). */
export const contentMaxBytesSchema = z.number().int().min(1024).max(4 * 1024 * 1024);
/**
 * An API key's default metadata: the same bounds as `X-Gateway-Metadata` (at most 16 keys of
 * `[A-Za-z0-9_.-]{1,64}`, string values of at most 256 characters).
 */
export const defaultMetadataSchema = z
  .record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/).refine((key) => key !== "__proto__", "reserved key"), z.string().max(256))
  .refine((value) => Object.keys(value).length <= 16, "at most 16 keys");
