import { describe, expect, it } from "vitest";
import { compileGlob, matchesGlob } from "./glob-pattern.js";

describe("matchesGlob", () => {
  it("matches literals exactly and case-sensitively", () => {
    expect(matchesGlob("openai/openai/gpt-4o", "openai/openai/gpt-4o")).toBe(true);
    expect(matchesGlob("openai/openai/gpt-4o", "openai/openai/gpt-4o-mini")).toBe(false);
    expect(matchesGlob("openai/openai/gpt-4o", "OpenAI/openai/gpt-4o")).toBe(false);
  });

  it("lets * match within one segment only", () => {
    expect(matchesGlob("openai/openai/*", "openai/openai/gpt-4o")).toBe(true);
    expect(matchesGlob("openai/*", "openai/openai/gpt-4o")).toBe(false);
    expect(matchesGlob("*/openai/gpt-4o", "azure/openai/gpt-4o")).toBe(true);
    expect(matchesGlob("openai/openai/gpt-*", "openai/openai/gpt-")).toBe(true);
    expect(matchesGlob("*", "fast")).toBe(true);
    expect(matchesGlob("*", "openai/openai/gpt-4o")).toBe(false);
  });

  it("lets ** match across segments", () => {
    expect(matchesGlob("openai/**", "openai/openai/gpt-4o")).toBe(true);
    expect(matchesGlob("**/gpt-4o", "openai/openai/gpt-4o")).toBe(true);
    expect(matchesGlob("**", "anything/at/all")).toBe(true);
    expect(matchesGlob("**", "alias")).toBe(true);
    expect(matchesGlob("**gpt**", "openai/openai/gpt-4o")).toBe(true);
    expect(matchesGlob("anthropic/**", "openai/openai/gpt-4o")).toBe(false);
  });

  it("treats regular-expression characters literally", () => {
    expect(matchesGlob("a.b", "a.b")).toBe(true);
    expect(matchesGlob("a.b", "axb")).toBe(false);
    expect(matchesGlob("v(1)+[x]", "v(1)+[x]")).toBe(true);
    expect(compileGlob("x?y")("xay")).toBe(false);
  });
});
