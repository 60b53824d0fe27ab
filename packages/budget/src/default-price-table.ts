import type { ModelPrice } from "@gateway/contracts";

/**
 * The date the {@link defaultPriceTable} was taken from the vendors' public list prices.
 * Prices change: override them per connection (`connections[].prices`).
 */
export const defaultPriceTableDate = "2025-06-01";

/**
 * List prices (USD per million tokens) of a few well-known models, keyed by `<vendor>/<model>`,
 * as published by OpenAI and Anthropic on {@link defaultPriceTableDate}. A connection's own
 * `prices` entry always wins (see {@link resolveModelPrice}).
 */
export const defaultPriceTable: Readonly<Record<string, Readonly<ModelPrice>>> = Object.freeze({
  "openai/gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25, maxOutputTokens: 16_384, contextWindow: 128_000 },
  "openai/gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075, maxOutputTokens: 16_384, contextWindow: 128_000 },
  "openai/gpt-4.1": { input: 2, output: 8, cacheRead: 0.5, maxOutputTokens: 32_768, contextWindow: 1_047_576 },
  "openai/gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1, maxOutputTokens: 32_768, contextWindow: 1_047_576 },
  "openai/gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025, maxOutputTokens: 32_768, contextWindow: 1_047_576 },
  "openai/o3-mini": { input: 1.1, output: 4.4, cacheRead: 0.55, maxOutputTokens: 100_000, contextWindow: 200_000 },
  "anthropic/claude-3-haiku-20240307": { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3, maxOutputTokens: 4_096, contextWindow: 200_000 },
  "anthropic/claude-3-5-haiku-20241022": { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1, maxOutputTokens: 8_192, contextWindow: 200_000 },
  "anthropic/claude-3-5-sonnet-20241022": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 8_192, contextWindow: 200_000 },
  "anthropic/claude-sonnet-4-20250514": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 64_000, contextWindow: 200_000 },
  "anthropic/claude-opus-4-20250514": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, maxOutputTokens: 32_000, contextWindow: 200_000 },
} satisfies Record<string, ModelPrice>);
