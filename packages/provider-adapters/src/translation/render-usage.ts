import type { NormalizedUsage } from "./normalized-usage.js";

/**
 * Renders {@link NormalizedUsage} as OpenAI chat `usage`: `prompt_tokens` includes cache reads and
 * writes; `prompt_tokens_details.cached_tokens` is the cache reads and the gateway extension
 * `prompt_tokens_details.cache_write_tokens` the cache writes.
 */
export function renderChatUsage(usage: NormalizedUsage): Record<string, unknown> {
  const promptTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: promptTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

/** Renders {@link NormalizedUsage} as Anthropic `usage`. */
export function renderAnthropicUsage(usage: NormalizedUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    output_tokens: usage.outputTokens,
  };
}
