import type { NormalizedUsage } from "@gateway/contracts";

/**
 * A token count read from a provider payload: a finite number above 0, floored; anything else
 * (missing, null, negative, a string, NaN) counts as 0. Provider usage is read leniently: a
 * field a provider leaves out must not fail a call that already happened.
 */
export function countTokensField(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER) : 0;
}

/** The value as a plain object, or an empty one. */
export function usageFields(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The normalized usage of an input count that INCLUDES cache reads and writes (OpenAI style):
 * split into the three input counts, each cache count capped by what remains, so inconsistent
 * numbers never bill more than the total; reasoning is capped by the output. Built as one
 * literal (not a spread of the split plus the output fields): every usage has the same shape.
 */
export function usageFromInputTotal(total: number, cacheRead: number, cacheWrite: number, outputTokens: number, reasoning: number): NormalizedUsage {
  const cacheReadTokens = Math.min(total, cacheRead);
  const cacheWriteTokens = Math.min(total - cacheReadTokens, cacheWrite);
  return {
    inputTokens: total - cacheReadTokens - cacheWriteTokens,
    outputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    reasoningTokens: Math.min(outputTokens, reasoning),
  };
}
