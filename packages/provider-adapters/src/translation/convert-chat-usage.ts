import type { NormalizedUsage } from "./normalized-usage.js";

/** OpenAI chat `usage` as providers send it (fields may be missing or null). */
export interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: {
    cached_tokens?: number | null;
    /** Gateway extension (also used by some OpenAI-compatible providers): cache write tokens. */
    cache_write_tokens?: number | null;
  } | null;
}

/**
 * Converts OpenAI chat `usage` to {@link NormalizedUsage}. OpenAI's `prompt_tokens` includes
 * cached tokens, so `inputTokens = prompt_tokens - cached_tokens - cache_write_tokens`.
 */
export function convertChatUsage(usage: ChatUsage | null | undefined): NormalizedUsage {
  const promptTokens = count(usage?.prompt_tokens);
  const cacheReadTokens = Math.min(count(usage?.prompt_tokens_details?.cached_tokens), promptTokens);
  const cacheWriteTokens = Math.min(count(usage?.prompt_tokens_details?.cache_write_tokens), promptTokens - cacheReadTokens);
  return {
    inputTokens: promptTokens - cacheReadTokens - cacheWriteTokens,
    outputTokens: count(usage?.completion_tokens),
    cacheReadTokens,
    cacheWriteTokens,
  };
}

function count(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
