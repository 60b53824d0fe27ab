import type { NormalizedUsage } from "./normalized-usage.js";

/** Anthropic `usage` as providers send it (fields may be missing or null). */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Converts Anthropic `usage` to {@link NormalizedUsage} (`input_tokens` already excludes cache tokens). */
export function convertAnthropicUsage(usage: AnthropicUsage | null | undefined): NormalizedUsage {
  return {
    inputTokens: count(usage?.input_tokens),
    outputTokens: count(usage?.output_tokens),
    cacheReadTokens: count(usage?.cache_read_input_tokens),
    cacheWriteTokens: count(usage?.cache_creation_input_tokens),
  };
}

function count(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
