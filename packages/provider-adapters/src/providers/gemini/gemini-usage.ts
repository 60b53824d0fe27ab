import type { NormalizedUsage } from "@gateway/contracts";
import { countTokensField, usageFields } from "../../formats/messages/count-tokens-field.js";

/**
 * The one reading of Gemini `usageMetadata`. `promptTokenCount` INCLUDES the cached tokens
 * (`cachedContentTokenCount`), so input = prompt + tool-use prompt - cached; output is the
 * candidates plus the thoughts (`thoughtsTokenCount`, billed as output and not part of
 * `candidatesTokenCount`), `reasoningTokens` the thoughts. Gemini has no cache writes in a call
 * (caches are created apart). Missing fields count 0.
 */
export function normalizeGeminiUsage(usageMetadata: unknown): NormalizedUsage {
  const fields = usageFields(usageMetadata);
  const prompt = countTokensField(fields.promptTokenCount) + countTokensField(fields.toolUsePromptTokenCount);
  const cacheReadTokens = Math.min(prompt, countTokensField(fields.cachedContentTokenCount));
  const thoughts = countTokensField(fields.thoughtsTokenCount);
  const outputTokens = countTokensField(fields.candidatesTokenCount) + thoughts;
  return { inputTokens: prompt - cacheReadTokens, outputTokens, cacheReadTokens, cacheWriteTokens: 0, reasoningTokens: thoughts };
}
