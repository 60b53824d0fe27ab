import type { NormalizedUsage } from "./provider-adapter.js";

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * OpenAI chat usage -> NormalizedUsage: `prompt_tokens_details.cached_tokens` become
 * `cacheReadTokens` and are taken out of `inputTokens` (`prompt_tokens - cached`).
 */
export function normalizeOpenAiUsage(usage: unknown): NormalizedUsage {
  const fields = record(usage);
  const prompt = count(fields.prompt_tokens);
  const cached = Math.min(prompt, count(record(fields.prompt_tokens_details).cached_tokens));
  return {
    inputTokens: prompt - cached,
    outputTokens: count(fields.completion_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

/** Anthropic usage -> NormalizedUsage (`input_tokens` already excludes cache tokens). */
export function normalizeAnthropicUsage(usage: unknown): NormalizedUsage {
  const fields = record(usage);
  return {
    inputTokens: count(fields.input_tokens),
    outputTokens: count(fields.output_tokens),
    cacheReadTokens: count(fields.cache_read_input_tokens),
    cacheWriteTokens: count(fields.cache_creation_input_tokens),
  };
}

/**
 * Decision-contract usage (`input_tokens` includes cached tokens, OpenAI style;
 * `input_tokens_details.cached_tokens` / `cache_creation_tokens`) -> NormalizedUsage.
 */
export function normalizeDecisionUsage(usage: unknown): NormalizedUsage {
  const fields = record(usage);
  const details = record(fields.input_tokens_details);
  const input = count(fields.input_tokens);
  const cacheRead = Math.min(input, count(details.cached_tokens));
  const cacheWrite = Math.min(input - cacheRead, count(details.cache_creation_tokens));
  return {
    inputTokens: input - cacheRead - cacheWrite,
    outputTokens: count(fields.output_tokens),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

/** NormalizedUsage -> decision-contract `usage` (input_tokens includes cache tokens). */
export function renderDecisionUsage(usage: NormalizedUsage): {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_creation_tokens: number };
} {
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    input_tokens: input,
    output_tokens: usage.outputTokens,
    total_tokens: input + usage.outputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_creation_tokens: usage.cacheWriteTokens },
  };
}
