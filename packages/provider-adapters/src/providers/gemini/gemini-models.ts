import type { ModelPrice } from "@gateway/contracts";

/** The Gemini models a new `gemini` connection offers (`<vendor>/<model>`; the vendor is left out upstream). */
export const geminiModels: readonly string[] = [
  "google/gemini-2.5-pro",
  "google/gemini-2.5-flash",
  "google/gemini-2.5-flash-lite",
  "google/gemini-embedding-001",
  "google/text-embedding-004",
];

/**
 * Google's list prices of the Gemini API (USD per million tokens, paid tier, text input, prompts
 * of up to 200k tokens; taken 2025-07). Output includes thinking. text-embedding-004 has no
 * paid price (free of charge on the Gemini API). A connection's own `prices` entry wins.
 */
export const geminiDefaultPrices: Readonly<Record<string, ModelPrice>> = Object.freeze({
  "google/gemini-2.5-pro": { input: 1.25, output: 10, cacheRead: 0.31, maxOutputTokens: 65_536, contextWindow: 1_048_576 },
  "google/gemini-2.5-flash": { input: 0.3, output: 2.5, cacheRead: 0.075, maxOutputTokens: 65_536, contextWindow: 1_048_576 },
  "google/gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cacheRead: 0.025, maxOutputTokens: 65_536, contextWindow: 1_048_576 },
  "google/gemini-embedding-001": { input: 0.15, output: 0 },
  "google/text-embedding-004": { input: 0, output: 0 },
});
