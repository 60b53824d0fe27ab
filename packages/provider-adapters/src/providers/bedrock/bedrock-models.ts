import type { ModelPrice } from "@gateway/contracts";

/**
 * Bedrock's on-demand prices (USD per million tokens, us-east-1) of the models a new `bedrock`
 * connection offers, keyed `<vendor>/<model>` (the Bedrock model id with its provider prefix as
 * the vendor: `anthropic/claude-sonnet-4-20250514-v1:0` is `anthropic.claude-sonnet-4-20250514-v1:0`).
 */
export const bedrockDefaultPrices: Readonly<Record<string, ModelPrice>> = {
  "anthropic/claude-opus-4-20250514-v1:0": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, maxOutputTokens: 32_000, contextWindow: 200_000 },
  "anthropic/claude-sonnet-4-20250514-v1:0": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 64_000, contextWindow: 200_000 },
  "anthropic/claude-3-7-sonnet-20250219-v1:0": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 64_000, contextWindow: 200_000 },
  "anthropic/claude-3-5-haiku-20241022-v1:0": { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1, maxOutputTokens: 8_192, contextWindow: 200_000 },
  "meta/llama3-3-70b-instruct-v1:0": { input: 0.72, output: 0.72, maxOutputTokens: 8_192, contextWindow: 128_000 },
  "meta/llama3-1-8b-instruct-v1:0": { input: 0.22, output: 0.22, maxOutputTokens: 8_192, contextWindow: 128_000 },
  "amazon/nova-pro-v1:0": { input: 0.8, output: 3.2, cacheRead: 0.2, maxOutputTokens: 10_000, contextWindow: 300_000 },
  "amazon/nova-lite-v1:0": { input: 0.06, output: 0.24, cacheRead: 0.015, maxOutputTokens: 10_000, contextWindow: 300_000 },
  "amazon/nova-micro-v1:0": { input: 0.035, output: 0.14, cacheRead: 0.00875, maxOutputTokens: 10_000, contextWindow: 128_000 },
  "amazon/titan-embed-text-v2:0": { input: 0.02, output: 0 },
  "cohere/embed-english-v3": { input: 0.1, output: 0 },
  "cohere/embed-multilingual-v3": { input: 0.1, output: 0 },
};

/** The models a new `bedrock` connection offers. */
export const bedrockModels: readonly string[] = Object.keys(bedrockDefaultPrices);
