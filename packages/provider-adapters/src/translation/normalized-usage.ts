/**
 * Token usage in the gateway's provider-neutral form. `inputTokens` EXCLUDES cache read and
 * cache write tokens (Anthropic convention), so cost = sum of each count times its price.
 */
export interface NormalizedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
