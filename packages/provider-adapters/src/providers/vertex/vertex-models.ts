import type { ModelPrice } from "@gateway/contracts";

/** Claude on Vertex AI (model ids with Vertex's `@` version) and Gemini, as a new `vertex` connection offers them. */
export const vertexModels = [
  "anthropic/claude-opus-4-5@20251101",
  "anthropic/claude-sonnet-4-5@20250929",
  "anthropic/claude-haiku-4-5@20251001",
  "anthropic/claude-opus-4-1@20250805",
  "anthropic/claude-sonnet-4@20250514",
  "anthropic/claude-3-5-haiku@20241022",
  "google/gemini-2.5-pro",
  "google/gemini-2.5-flash",
  "google/gemini-2.5-flash-lite",
] as const;

const claude = (input: number, output: number, maxOutputTokens: number): ModelPrice => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
  maxOutputTokens,
  contextWindow: 200_000,
});

const gemini = (input: number, output: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  maxOutputTokens: 65_536,
  contextWindow: 1_048_576,
});

/**
 * List prices in USD per million tokens (Vertex AI's pricing page; Claude's prompt-cache reads at
 * a tenth of input, 5-minute cache writes at 1.25x; Gemini 2.5 Pro at its prompts-up-to-200k rate).
 */
export const vertexDefaultPrices: Readonly<Record<string, ModelPrice>> = {
  "anthropic/claude-opus-4-5@20251101": claude(5, 25, 64_000),
  "anthropic/claude-sonnet-4-5@20250929": claude(3, 15, 64_000),
  "anthropic/claude-haiku-4-5@20251001": claude(1, 5, 64_000),
  "anthropic/claude-opus-4-1@20250805": claude(15, 75, 32_000),
  "anthropic/claude-sonnet-4@20250514": claude(3, 15, 64_000),
  "anthropic/claude-3-5-haiku@20241022": claude(0.8, 4, 8_192),
  "google/gemini-2.5-pro": gemini(1.25, 10, 0.125),
  "google/gemini-2.5-flash": gemini(0.3, 2.5, 0.03),
  "google/gemini-2.5-flash-lite": gemini(0.1, 0.4, 0.01),
};
