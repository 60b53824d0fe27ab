import type { ModelPrice, NormalizedUsage } from "@gateway/contracts";

/** The token counts a call is billed for (`reasoningTokens` are part of `outputTokens`). */
export type BilledUsage = Pick<NormalizedUsage, "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens">;

/** Prices are turned into integers of this many parts per USD-per-million before multiplying. */
const priceScale = 1_000_000;

/**
 * The cost of one call in integer micro-USD (USD × 1e6).
 *
 * Because prices are USD per million tokens, one token at price `p` costs exactly `p`
 * micro-USD. Each of the four token kinds is multiplied by its own price (`inputTokens`
 * excludes cache tokens); a missing `cacheRead` or `cacheWrite` price falls back to the
 * `input` price (never under-bills). The sum is computed on integers (prices are scaled to
 * 1e-6 USD per million tokens, so `0.15 × 100` is exactly 15) and rounded UP to the next
 * whole micro-USD.
 *
 * @example computeCostMicros({ inputTokens: 1000, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0 }, { input: 0.15, output: 0.6 }) // 270
 */
export function computeCostMicros(usage: BilledUsage, price: ModelPrice): number {
  const inputPrice = checkedPrice(price.input, "input");
  const outputPrice = checkedPrice(price.output, "output");
  const cacheReadPrice = price.cacheRead === undefined ? inputPrice : checkedPrice(price.cacheRead, "cacheRead");
  const cacheWritePrice = price.cacheWrite === undefined ? inputPrice : checkedPrice(price.cacheWrite, "cacheWrite");
  return scaledCostMicros(
    checkedTokens(usage.inputTokens, "inputTokens") * scalePrice(inputPrice) +
      checkedTokens(usage.outputTokens, "outputTokens") * scalePrice(outputPrice) +
      checkedTokens(usage.cacheReadTokens, "cacheReadTokens") * scalePrice(cacheReadPrice) +
      checkedTokens(usage.cacheWriteTokens, "cacheWriteTokens") * scalePrice(cacheWritePrice),
  );
}

/** Total tokens of a usage record (input + output + cache read + cache write), as counted by token rate limits. */
export function countUsageTokens(usage: BilledUsage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** @internal */
export function scalePrice(price: number): number {
  return Math.round(price * priceScale);
}

/** @internal Converts a sum of tokens × scaled prices to whole micro-USD, rounding up. */
export function scaledCostMicros(scaledSum: number): number {
  if (!Number.isSafeInteger(scaledSum)) {
    // Beyond 2^53 the integer path loses precision; such sums are > $9,000 per call.
    return Math.ceil(scaledSum / priceScale);
  }
  const whole = Math.floor(scaledSum / priceScale);
  return scaledSum % priceScale === 0 ? whole : whole + 1;
}

/** @internal */
export function checkedPrice(value: number, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`Price "${name}" must be a finite number >= 0 (USD per million tokens).`);
  }
  return value;
}

/** @internal */
export function checkedTokens(value: number, name: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Token count "${name}" must be an integer >= 0.`);
  }
  return value;
}
