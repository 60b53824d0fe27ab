import { describe, expect, it } from "vitest";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";

describe("mapAnthropicStopReason", () => {
  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["pause_turn", "stop"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["tool_use", "tool_calls"],
    ["refusal", "content_filter"],
  ])("maps %s to %s", (stopReason, finishReason) => {
    expect(mapAnthropicStopReason(stopReason)).toBe(finishReason);
  });

  it("falls back to stop for unknown or missing reasons", () => {
    expect(mapAnthropicStopReason("some_future_reason")).toBe("stop");
    expect(mapAnthropicStopReason(null)).toBe("stop");
    expect(mapAnthropicStopReason(undefined)).toBe("stop");
  });
});
