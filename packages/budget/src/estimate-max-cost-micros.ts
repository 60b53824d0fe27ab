import { boundCallCostMicros } from "./bound-call-cost-micros.js";
import { checkedTokens } from "./compute-cost-micros.js";
import type { ModelPrice } from "@gateway/contracts";

/** Output bound used when neither the request, the price nor the context window gives one. */
export const defaultFallbackMaxOutputTokens = 16_384;

/** Input of {@link estimateMaxCostMicros}. */
export interface EstimateMaxCostInput {
  /** Input tokens of the request as counted before the call (cache hits unknown yet). */
  inputTokens: number;
  /** The request's output cap (`max_tokens` and friends), if any. */
  maxOutputTokens?: number | null;
  price: ModelPrice;
  /** Used when no other output bound is known. Default {@link defaultFallbackMaxOutputTokens}. */
  fallbackMaxOutputTokens?: number;
}

/**
 * The output-token bound of a call: the request's cap, else the model's `maxOutputTokens`,
 * else what is left of the context window, else `fallbackMaxOutputTokens`. The smallest of
 * the known bounds wins. The request's cap is the caller's number: one beyond 2^53 - 1 counts as
 * 2^53 - 1 (never as no cap), and one that is not a number >= 0 (NaN, negative) is left out, so
 * the estimate never throws on what a caller sent (the HTTP layer refuses such caps before).
 */
export function resolveMaxOutputTokens(input: Omit<EstimateMaxCostInput, "price"> & { price?: ModelPrice | null }): number {
  let bound = Number.POSITIVE_INFINITY;
  const cap = input.maxOutputTokens;
  if (typeof cap === "number" && cap >= 0) bound = Math.min(bound, cap, Number.MAX_SAFE_INTEGER);
  const price = input.price;
  if (price?.maxOutputTokens !== undefined) bound = Math.min(bound, price.maxOutputTokens);
  if (price?.contextWindow !== undefined) bound = Math.min(bound, Math.max(0, price.contextWindow - input.inputTokens));
  if (bound === Number.POSITIVE_INFINITY) bound = input.fallbackMaxOutputTokens ?? defaultFallbackMaxOutputTokens;
  return checkedTokens(Math.max(0, Math.ceil(bound)), "maxOutputTokens");
}

/**
 * An upper bound of a call's cost in integer micro-USD, reserved at admission on hard budgets.
 *
 * Every input token is priced at the highest of the input, cache-read and cache-write prices
 * (the cache split is only known afterwards; cache writes can cost more than plain input),
 * and the output at {@link resolveMaxOutputTokens} tokens. Rounded up.
 */
export function estimateMaxCostMicros(input: EstimateMaxCostInput): number {
  // With the output fixed at its resolved bound, the call bound prices input and output alike.
  return boundCallCostMicros({ inputTokens: checkedTokens(input.inputTokens, "inputTokens"), maxOutputTokens: resolveMaxOutputTokens(input), price: input.price })!;
}
