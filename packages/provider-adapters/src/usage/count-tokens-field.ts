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
 * Splits an input count that INCLUDES cache reads and writes (OpenAI style) into the three
 * normalized counts, each cache count capped by what remains, so inconsistent numbers never bill
 * more than the total.
 */
export function splitCachedInput(total: number, cacheRead: number, cacheWrite: number): { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number } {
  const cacheReadTokens = Math.min(total, cacheRead);
  const cacheWriteTokens = Math.min(total - cacheReadTokens, cacheWrite);
  return { inputTokens: total - cacheReadTokens - cacheWriteTokens, cacheReadTokens, cacheWriteTokens };
}
