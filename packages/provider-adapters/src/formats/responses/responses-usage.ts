import type { NormalizedUsage } from "@gateway/contracts";
import { countTokensField, usageFromInputTotal, usageFields } from "../messages/count-tokens-field.js";

/** OpenAI Responses `usage` as providers send it (any field may be missing or null). */
export interface ResponsesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
  input_tokens_details?: {
    cached_tokens?: number | null;
    /** Cache writes: the gateway's own translated answers (from Anthropic) report them here. */
    cache_write_tokens?: number | null;
  } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * The one reading of OpenAI Responses `usage` (native answers, translated answers and streams
 * alike). `input_tokens` INCLUDES cache reads (`input_tokens_details.cached_tokens`) and cache
 * writes (`input_tokens_details.cache_write_tokens`, a gateway extension), each capped by what
 * remains so inconsistent numbers never bill more than `input_tokens`; `output_tokens` includes
 * reasoning (`output_tokens_details.reasoning_tokens`, capped by the output). Missing fields count 0.
 */
export function normalizeResponsesUsage(usage: unknown): NormalizedUsage {
  const fields = usageFields(usage);
  const inputDetails = usageFields(fields.input_tokens_details);
  const outputTokens = countTokensField(fields.output_tokens);
  return usageFromInputTotal(countTokensField(fields.input_tokens), countTokensField(inputDetails.cached_tokens), countTokensField(inputDetails.cache_write_tokens), outputTokens, countTokensField(usageFields(fields.output_tokens_details).reasoning_tokens));
}

/**
 * Renders {@link NormalizedUsage} as Responses `usage` (the inverse of
 * {@link normalizeResponsesUsage}): `input_tokens` includes cache reads and writes.
 */
export function renderResponsesUsage(usage: NormalizedUsage): Required<ResponsesUsage> {
  const inputTokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: inputTokens + usage.outputTokens,
  };
}
