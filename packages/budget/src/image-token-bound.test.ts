import { describe, expect, it } from "vitest";
import { imageTokenBound } from "./image-token-bound.js";

const bound = (model: string, size: { width: number; height: number } | null, detail: string | null = null, provider = "openai") =>
  imageTokenBound({ model, provider, size, detail });

describe("imageTokenBound", () => {
  it("follows OpenAI's tile rule: the guide's examples, low detail, and 8 tiles for an unknown size", () => {
    expect(bound("openai/gpt-4o", { width: 1024, height: 1024 }, "high")).toBe(765);
    expect(bound("openai/gpt-4o", { width: 2048, height: 4096 }, "auto")).toBe(1105);
    expect(bound("openai/gpt-4o-2024-08-06", { width: 4096, height: 8192 }, "low")).toBe(85);
    expect(bound("openai/gpt-4.1", { width: 200, height: 100 })).toBe(85 + 170);
    expect(bound("openai/gpt-4o", null, "high")).toBe(85 + 170 * 8);
    expect(bound("openai/gpt-4o-mini", null)).toBe(2833 + 5667 * 8);
    expect(bound("openai/gpt-4o-mini", { width: 1024, height: 1024 }, "low")).toBe(2833);
  });

  it("follows OpenAI's patch rule with the model's multiplier, capped at 1536 patches", () => {
    expect(bound("openai/gpt-4.1-mini", { width: 1024, height: 1024 })).toBe(Math.ceil(1024 * 1.62));
    expect(bound("openai/gpt-4.1-nano", { width: 8000, height: 8000 }, "low")).toBe(Math.ceil(1536 * 2.46));
    expect(bound("openai/o4-mini", null)).toBe(Math.ceil(1536 * 1.72));
  });

  it("follows Anthropic's pixel rule, capped by the model's native resolution", () => {
    expect(bound("anthropic/claude-sonnet-4-20250514", { width: 1000, height: 1000 }, null, "anthropic")).toBe(1334);
    expect(bound("anthropic/claude-3-5-haiku-20241022", { width: 200, height: 200 }, null, "anthropic")).toBe(64);
    expect(bound("anthropic/claude-sonnet-4-20250514", null, null, "anthropic")).toBe(1750);
    expect(bound("anthropic/claude-sonnet-4-5", { width: 8000, height: 8000 }, null, "anthropic")).toBe(1750);
    expect(bound("anthropic/claude-opus-4-7", null, null, "anthropic")).toBe(5100);
    expect(bound("anthropic/some-future-model", null, null, "anthropic")).toBe(5100);
  });

  it("counts a model it does not recognise at the largest rule that could apply", () => {
    expect(bound("openai/random", null)).toBe(5100);
    expect(bound("openai/random", { width: 1024, height: 1024 }, "low")).toBe(Math.ceil(1024 * 2.46));
    // Every rule's own answer is within the unrecognised model's bound.
    for (const size of [null, { width: 300, height: 5000 }, { width: 1024, height: 1024 }, { width: 6000, height: 4000 }]) {
      const unknown = bound("vendor/unknown", size);
      for (const model of ["openai/gpt-4o", "openai/gpt-4.1-nano", "openai/gpt-5-mini", "anthropic/claude-opus-4-7", "anthropic/claude-3-haiku-20240307"]) {
        expect(bound(model, size)).toBeLessThanOrEqual(unknown);
      }
    }
  });
});
