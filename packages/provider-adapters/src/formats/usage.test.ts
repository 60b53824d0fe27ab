import type { NormalizedUsage } from "@gateway/contracts";
import { describe, expect, it } from "vitest";
import { normalizeChatUsage, renderChatUsage } from "./chat-completions/chat-usage.js";
import { normalizeDecisionUsage, renderDecisionUsage } from "./decisions/decision-usage.js";
import { mergeMessagesUsage, normalizeMessagesUsage, renderMessagesUsage } from "./messages/messages-usage.js";

const usage = (fields: Partial<NormalizedUsage>): NormalizedUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  ...fields,
});

describe("normalizeChatUsage (OpenAI chat usage, golden cases)", () => {
  it.each([
    ["plain", { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 }, usage({ inputTokens: 100, outputTokens: 20 })],
    [
      "cached reads come out of prompt_tokens",
      { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 10 } },
      usage({ inputTokens: 90, outputTokens: 20, cacheReadTokens: 10 }),
    ],
    [
      "cache reads and writes both come out of prompt_tokens",
      { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 20 } },
      usage({ inputTokens: 70, outputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 20 }),
    ],
    [
      "reasoning tokens are reported and stay inside completion_tokens",
      { prompt_tokens: 50, completion_tokens: 300, completion_tokens_details: { reasoning_tokens: 256 } },
      usage({ inputTokens: 50, outputTokens: 300, reasoningTokens: 256 }),
    ],
    ["missing usage", undefined, usage({})],
    ["null fields", { prompt_tokens: null, completion_tokens: null, prompt_tokens_details: null, completion_tokens_details: null }, usage({})],
    [
      "inconsistent numbers never bill more than prompt_tokens",
      { prompt_tokens: 30, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 25, cache_write_tokens: 25 }, completion_tokens_details: { reasoning_tokens: 9 } },
      usage({ inputTokens: 0, outputTokens: 5, cacheReadTokens: 25, cacheWriteTokens: 5, reasoningTokens: 5 }),
    ],
    ["garbage values count 0", { prompt_tokens: "100", completion_tokens: -3, prompt_tokens_details: { cached_tokens: Number.NaN } }, usage({})],
  ])("%s", (_name, raw, expected) => {
    expect(normalizeChatUsage(raw)).toEqual(expected);
  });

  it("round-trips through renderChatUsage", () => {
    const original = usage({ inputTokens: 70, outputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 20, reasoningTokens: 4 });
    expect(renderChatUsage(original)).toEqual({
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 20 },
      completion_tokens_details: { reasoning_tokens: 4 },
    });
    expect(normalizeChatUsage(renderChatUsage(original))).toEqual(original);
  });
});

describe("normalizeMessagesUsage (Anthropic usage, golden cases)", () => {
  it.each([
    ["plain", { input_tokens: 100, output_tokens: 20 }, usage({ inputTokens: 100, outputTokens: 20 })],
    [
      "cache reads and writes are separate from input_tokens",
      { input_tokens: 70, output_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 20 },
      usage({ inputTokens: 70, outputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 20 }),
    ],
    ["missing usage", null, usage({})],
    ["missing cache fields", { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: null }, usage({ inputTokens: 5, outputTokens: 1 })],
  ])("%s", (_name, raw, expected) => {
    expect(normalizeMessagesUsage(raw)).toEqual(expected);
  });

  it("merges cumulative stream usage: a field the later event leaves out keeps its earlier value", () => {
    const start = mergeMessagesUsage({}, { input_tokens: 70, output_tokens: 1, cache_read_input_tokens: 10, cache_creation_input_tokens: 20 });
    const end = mergeMessagesUsage(start, { output_tokens: 42 });
    expect(normalizeMessagesUsage(end)).toEqual(usage({ inputTokens: 70, outputTokens: 42, cacheReadTokens: 10, cacheWriteTokens: 20 }));
  });

  it("round-trips through renderMessagesUsage", () => {
    const original = usage({ inputTokens: 70, outputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 20 });
    expect(normalizeMessagesUsage(renderMessagesUsage(original))).toEqual(original);
  });
});

describe("normalizeDecisionUsage (decision contract usage, golden cases)", () => {
  it.each([
    [
      "cache reads and writes come out of input_tokens",
      { input_tokens: 100, output_tokens: 3, input_tokens_details: { cached_tokens: 10, cache_creation_tokens: 20 } },
      usage({ inputTokens: 70, outputTokens: 3, cacheReadTokens: 10, cacheWriteTokens: 20 }),
    ],
    ["reasoning tokens", { input_tokens: 10, output_tokens: 50, output_tokens_details: { reasoning_tokens: 40 } }, usage({ inputTokens: 10, outputTokens: 50, reasoningTokens: 40 })],
    ["missing usage", undefined, usage({})],
  ])("%s", (_name, raw, expected) => {
    expect(normalizeDecisionUsage(raw)).toEqual(expected);
  });

  it("round-trips through renderDecisionUsage", () => {
    const original = usage({ inputTokens: 70, outputTokens: 20, cacheReadTokens: 10, cacheWriteTokens: 20, reasoningTokens: 3 });
    expect(normalizeDecisionUsage(renderDecisionUsage(original))).toEqual(original);
  });
});

describe("one call, one usage, whichever route served it (the cost is a function of the normalized usage)", () => {
  it("an OpenAI-format usage and the Anthropic usage of the same call normalize alike", () => {
    // prompt 100 = 70 fresh + 10 cache reads + 20 cache writes, whichever wire format reports it.
    const asChat = normalizeChatUsage({ prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 20 } });
    const asMessages = normalizeMessagesUsage({ input_tokens: 70, output_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 20 });
    const asDecision = normalizeDecisionUsage({ input_tokens: 100, output_tokens: 20, input_tokens_details: { cached_tokens: 10, cache_creation_tokens: 20 } });
    expect(asChat).toEqual(asMessages);
    expect(asDecision).toEqual(asMessages);
  });

  it("a translated answer's rendered usage reads back to what the provider reported", () => {
    const reported = normalizeMessagesUsage({ input_tokens: 70, output_tokens: 20, cache_read_input_tokens: 10, cache_creation_input_tokens: 20 });
    expect(normalizeChatUsage(renderChatUsage(reported))).toEqual(reported);
    expect(normalizeMessagesUsage(renderMessagesUsage(normalizeChatUsage(renderChatUsage(reported))))).toEqual(reported);
  });
});
