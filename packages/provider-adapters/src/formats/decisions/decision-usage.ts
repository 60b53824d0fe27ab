import type { NormalizedUsage } from "@gateway/contracts";
import type { DecisionUsage } from "@gateway/decision-schema";
import { countTokensField, usageFromInputTotal, usageFields } from "../messages/count-tokens-field.js";

/**
 * The one reading of decision-contract `usage`: `input_tokens` INCLUDES cache reads
 * (`input_tokens_details.cached_tokens`) and writes (`cache_creation_tokens`), each capped by
 * what remains; `output_tokens_details.reasoning_tokens` is informational. Missing fields count 0.
 */
export function normalizeDecisionUsage(usage: unknown): NormalizedUsage {
  const fields = usageFields(usage);
  const details = usageFields(fields.input_tokens_details);
  const outputTokens = countTokensField(fields.output_tokens);
  return usageFromInputTotal(countTokensField(fields.input_tokens), countTokensField(details.cached_tokens), countTokensField(details.cache_creation_tokens), outputTokens, countTokensField(usageFields(fields.output_tokens_details).reasoning_tokens));
}

/** Renders {@link NormalizedUsage} as decision-contract `usage`, every field set (the inverse of {@link normalizeDecisionUsage}). */
export function renderDecisionUsage(usage: NormalizedUsage): DecisionUsage {
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    input_tokens: input,
    output_tokens: usage.outputTokens,
    total_tokens: input + usage.outputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_creation_tokens: usage.cacheWriteTokens },
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}
