/**
 * Token usage of one provider call in the gateway's provider-neutral form. `inputTokens`
 * EXCLUDES cache read and cache write tokens (Anthropic's convention), so a call's cost is the
 * sum of each count times its price. `reasoningTokens` is informational: reasoning tokens are
 * already counted in `outputTokens` (both OpenAI and Anthropic bill them as output).
 */
export interface NormalizedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Part of `outputTokens` spent on reasoning, when the provider reports it (else 0). */
  reasoningTokens: number;
}
