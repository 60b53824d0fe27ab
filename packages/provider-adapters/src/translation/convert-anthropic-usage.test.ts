import { describe, expect, it } from "vitest";
import { convertAnthropicUsage } from "./convert-anthropic-usage.js";

describe("convertAnthropicUsage", () => {
  it("keeps input tokens apart from cache reads and writes", () => {
    expect(
      convertAnthropicUsage({ input_tokens: 21, output_tokens: 12, cache_creation_input_tokens: 188, cache_read_input_tokens: 1024 }),
    ).toEqual({ inputTokens: 21, outputTokens: 12, cacheReadTokens: 1024, cacheWriteTokens: 188 });
  });

  it("treats missing, null or invalid counts as zero", () => {
    expect(convertAnthropicUsage({ input_tokens: 5, cache_creation_input_tokens: null })).toEqual({
      inputTokens: 5,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(convertAnthropicUsage(undefined)).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(convertAnthropicUsage({ input_tokens: Number.NaN, output_tokens: -3 })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });
});
