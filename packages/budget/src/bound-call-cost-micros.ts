import type { ModelPrice } from "@gateway/contracts";
import { checkedPrice, checkedTokens, scaledCostMicros, scalePrice } from "./compute-cost-micros.js";

/** Input of {@link boundCallCostMicros} and {@link boundOutputTokens}. */
export interface CallCostBoundInput {
  /** An upper bound of the input tokens the provider bills (see the pipeline's request bound). */
  inputTokens: number;
  /** The request's output cap per choice (`max_tokens` and friends); null or absent when none. */
  maxOutputTokens?: number | null;
  /** Choices generated (OpenAI's `n`); each one may reach the output cap. Default 1. */
  choices?: number;
  /** Output tokens billed besides the choices' (OpenAI's rejected predicted-output tokens). Default 0. */
  extraOutputTokens?: number;
  price: ModelPrice;
}

/**
 * The output tokens one choice can reach: the smallest of the request's cap, the model's
 * `maxOutputTokens` and its `contextWindow` (output never exceeds the window, whatever the input
 * is: the window is not reduced by the input bound, which may be far above the real input). Null
 * when none of the three is known: such a call's cost has no bound.
 */
export function boundOutputTokens(input: Omit<CallCostBoundInput, "price"> & { price: ModelPrice | null }): number | null {
  let bound = Number.POSITIVE_INFINITY;
  const cap = input.maxOutputTokens;
  if (typeof cap === "number" && cap >= 0) bound = Math.min(bound, cap, Number.MAX_SAFE_INTEGER);
  const price = input.price;
  if (price?.maxOutputTokens !== undefined && price.maxOutputTokens >= 0) bound = Math.min(bound, price.maxOutputTokens);
  if (price?.contextWindow !== undefined && price.contextWindow >= 0) bound = Math.min(bound, price.contextWindow);
  return bound === Number.POSITIVE_INFINITY ? null : Math.ceil(bound);
}

/**
 * An upper bound of a call's cost in integer micro-USD, reserved at admission on hard budgets,
 * or null when it has none (no output bound, see {@link boundOutputTokens}).
 *
 * Every input token is priced at the highest of the input, cache-read and cache-write prices (the
 * cache split is only known afterwards), and each of the `choices` at {@link boundOutputTokens}
 * output tokens, plus `extraOutputTokens`. Rounded up. Never below the cost `computeCostMicros` gives any usage within these
 * bounds.
 *
 * @example boundCallCostMicros({ inputTokens: 1000, maxOutputTokens: 100, choices: 2, price: { input: 1, output: 2 } }) // 1400
 */
export function boundCallCostMicros(input: CallCostBoundInput): number | null {
  const price = input.price;
  const outputTokens = boundOutputTokens(input);
  if (outputTokens === null) return null;
  const choices = input.choices === undefined ? 1 : Math.max(1, Math.ceil(input.choices));
  const highestInputPrice = Math.max(
    checkedPrice(price.input, "input"),
    price.cacheRead === undefined ? 0 : checkedPrice(price.cacheRead, "cacheRead"),
    price.cacheWrite === undefined ? 0 : checkedPrice(price.cacheWrite, "cacheWrite"),
  );
  const inputTokens = checkedTokens(Math.ceil(input.inputTokens), "inputTokens");
  const extraOutput = input.extraOutputTokens === undefined ? 0 : Math.max(0, Math.ceil(input.extraOutputTokens));
  const totalOutput = checkedTokens(Math.min(Number.MAX_SAFE_INTEGER, outputTokens * choices + extraOutput), "outputTokens");
  return scaledCostMicros(inputTokens * scalePrice(highestInputPrice) + totalOutput * scalePrice(checkedPrice(price.output, "output")));
}
