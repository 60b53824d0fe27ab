import type { NormalizedUsage } from "@gateway/contracts";
import { countTokensField, usageFromInputTotal, usageFields } from "../messages/count-tokens-field.js";

/** OpenAI chat `usage` as providers send it (any field may be missing or null). */
export interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: {
    cached_tokens?: number | null;
    /** Cache writes: sent by some OpenAI-compatible providers (OpenRouter) and by the gateway's own translated answers. */
    cache_write_tokens?: number | null;
  } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * The one reading of OpenAI chat `usage` (native answers, translated answers and streams
 * alike). `prompt_tokens` INCLUDES cache reads (`prompt_tokens_details.cached_tokens`) and cache
 * writes (`prompt_tokens_details.cache_write_tokens`), so `inputTokens = prompt - read - write`;
 * each is capped by what remains, so inconsistent numbers never bill more than
 * `prompt_tokens`. `completion_tokens` includes reasoning tokens (`reasoningTokens` repeats
 * `completion_tokens_details.reasoning_tokens`, capped by the completion). Missing fields count 0.
 */
export function normalizeChatUsage(usage: unknown): NormalizedUsage {
  const fields = usageFields(usage);
  const promptDetails = usageFields(fields.prompt_tokens_details);
  const outputTokens = countTokensField(fields.completion_tokens);
  return usageFromInputTotal(countTokensField(fields.prompt_tokens), countTokensField(promptDetails.cached_tokens), countTokensField(promptDetails.cache_write_tokens), outputTokens, countTokensField(usageFields(fields.completion_tokens_details).reasoning_tokens));
}

/**
 * Renders {@link NormalizedUsage} as OpenAI chat `usage` (the inverse of
 * {@link normalizeChatUsage}): `prompt_tokens` includes cache reads and writes,
 * `prompt_tokens_details.cached_tokens` the reads and `cache_write_tokens` the writes.
 */
export function renderChatUsage(usage: NormalizedUsage): Required<ChatUsage> {
  const promptTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: promptTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}
