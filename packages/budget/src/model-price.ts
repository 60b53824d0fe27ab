/**
 * A model's price, in USD per million tokens. Same shape as `connections[].prices[model]`
 * of the control-plane snapshot.
 */
export interface ModelPrice {
  /** Input (prompt) tokens that are neither read from nor written to a prompt cache. */
  input: number;
  /** Output (completion) tokens. */
  output: number;
  /** Tokens read from the prompt cache. Absent: billed at the `input` price. */
  cacheRead?: number;
  /** Tokens written to the prompt cache. Absent: billed at the `input` price. */
  cacheWrite?: number;
  /** The model's own output-token cap; bounds a call's cost when the request sets none. */
  maxOutputTokens?: number;
  /** The model's context window (input + output tokens). */
  contextWindow?: number;
}

/**
 * Token usage of one call. Structurally identical to `NormalizedUsage` of
 * `@gateway/provider-adapters`: `inputTokens` EXCLUDES cache read and cache write tokens.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
