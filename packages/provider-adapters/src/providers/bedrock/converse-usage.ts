import type { NormalizedUsage } from "@gateway/contracts";
import { countTokensField, usageFields } from "../../formats/messages/count-tokens-field.js";

/**
 * Reads a Converse `usage` (`inputTokens`, `outputTokens`, `cacheReadInputTokens`,
 * `cacheWriteInputTokens`): like Anthropic's, `inputTokens` excludes the cache reads and writes,
 * so the counts map one to one. Missing fields count 0; no separate reasoning count.
 */
export function normalizeConverseUsage(usage: unknown): NormalizedUsage {
  const fields = usageFields(usage);
  return {
    inputTokens: countTokensField(fields.inputTokens),
    outputTokens: countTokensField(fields.outputTokens),
    cacheReadTokens: countTokensField(fields.cacheReadInputTokens),
    cacheWriteTokens: countTokensField(fields.cacheWriteInputTokens),
    reasoningTokens: 0,
  };
}
