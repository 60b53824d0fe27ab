/** A model's price, in USD per million tokens (the `prices` of a snapshot connection, keyed by `<vendor>/<model>`). */
export interface ModelPrice {
  /** Input (prompt) tokens that are neither read from nor written to a prompt cache. */
  input: number;
  /** Output (completion) tokens, reasoning included. */
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
