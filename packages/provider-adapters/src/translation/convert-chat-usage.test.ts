import { describe, expect, it } from "vitest";
import { convertChatUsage } from "./convert-chat-usage.js";

describe("convertChatUsage", () => {
  it("subtracts cached tokens from prompt tokens so input excludes cache reads", () => {
    expect(
      convertChatUsage({ prompt_tokens: 2006, completion_tokens: 300, total_tokens: 2306, prompt_tokens_details: { cached_tokens: 1920 } }),
    ).toEqual({ inputTokens: 86, outputTokens: 300, cacheReadTokens: 1920, cacheWriteTokens: 0 });
  });

  it("also subtracts the cache_write_tokens extension", () => {
    expect(
      convertChatUsage({ prompt_tokens: 1233, completion_tokens: 12, prompt_tokens_details: { cached_tokens: 1024, cache_write_tokens: 188 } }),
    ).toEqual({ inputTokens: 21, outputTokens: 12, cacheReadTokens: 1024, cacheWriteTokens: 188 });
  });

  it("handles missing details and never goes negative", () => {
    expect(convertChatUsage({ prompt_tokens: 9, completion_tokens: 12 })).toEqual({
      inputTokens: 9,
      outputTokens: 12,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(convertChatUsage({ prompt_tokens: 5, prompt_tokens_details: { cached_tokens: 50 } }).inputTokens).toBe(0);
    expect(convertChatUsage(null)).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
