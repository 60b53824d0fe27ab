import { describe, expect, it } from "vitest";
import { mapChatFinishReason } from "./map-chat-finish-reason.js";

describe("mapChatFinishReason", () => {
  it.each([
    ["stop", "end_turn"],
    ["length", "max_tokens"],
    ["tool_calls", "tool_use"],
    ["function_call", "tool_use"],
    ["content_filter", "refusal"],
  ])("maps %s to %s", (finishReason, stopReason) => {
    expect(mapChatFinishReason(finishReason)).toBe(stopReason);
  });

  it("falls back to end_turn for unknown or missing reasons", () => {
    expect(mapChatFinishReason("eos")).toBe("end_turn");
    expect(mapChatFinishReason(null)).toBe("end_turn");
    expect(mapChatFinishReason(undefined)).toBe("end_turn");
  });
});
