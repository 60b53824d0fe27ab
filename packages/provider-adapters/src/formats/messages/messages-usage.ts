import type { NormalizedUsage } from "@gateway/contracts";
import { countTokensField, usageFields } from "./count-tokens-field.js";

/** Anthropic `usage` as providers send it (any field may be missing or null). */
export interface MessagesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

const messagesUsageFields = ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"] as const;

/**
 * The one reading of Anthropic messages `usage` (native answers, translated answers and
 * streams alike): `input_tokens` already EXCLUDES cache reads and writes, so the counts map one
 * to one. Anthropic reports no separate reasoning count (thinking is billed as output), so
 * `reasoningTokens` is 0. Missing fields count 0.
 */
export function normalizeMessagesUsage(usage: unknown): NormalizedUsage {
  const fields = usageFields(usage);
  return {
    inputTokens: countTokensField(fields.input_tokens),
    outputTokens: countTokensField(fields.output_tokens),
    cacheReadTokens: countTokensField(fields.cache_read_input_tokens),
    cacheWriteTokens: countTokensField(fields.cache_creation_input_tokens),
    reasoningTokens: 0,
  };
}

/**
 * Merges the usage of a later stream event into what is known: `message_delta.usage` is
 * cumulative but may leave fields out (older API versions send only `output_tokens`), so a
 * field it omits keeps its `message_start` value. Returns the merged raw fields.
 */
export function mergeMessagesUsage(known: MessagesUsage, next: unknown): MessagesUsage {
  const fields = usageFields(next);
  const merged: MessagesUsage = { ...known };
  for (const name of messagesUsageFields) {
    const value = fields[name];
    if (typeof value === "number") merged[name] = value;
  }
  return merged;
}

/** Renders {@link NormalizedUsage} as Anthropic `usage` (the inverse of {@link normalizeMessagesUsage}). */
export function renderMessagesUsage(usage: NormalizedUsage): Required<MessagesUsage> {
  return {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    output_tokens: usage.outputTokens,
  };
}
