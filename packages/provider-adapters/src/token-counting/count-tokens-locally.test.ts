import { GatewayError } from "@gateway/errors";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { countTokensLocally, selectLocalTokenizer } from "./count-tokens-locally.js";

const o200k = new Tiktoken(o200kBase);
const tokens = (text: string) => o200k.encode(text).length;

describe("selectLocalTokenizer", () => {
  it.each([
    ["openai/gpt-4o", "o200k_base", true],
    ["gpt-4o-mini-2024-07-18", "o200k_base", true],
    ["openai/gpt-4.1-nano", "o200k_base", true],
    ["gpt-5", "o200k_base", true],
    ["gpt-5.1-mini", "o200k_base", true],
    ["o1-preview", "o200k_base", true],
    ["openai/o3-mini", "o200k_base", true],
    ["o4-mini", "o200k_base", true],
    ["openai/gpt-4", "cl100k_base", true],
    ["gpt-4-turbo-2024-04-09", "cl100k_base", true],
    ["gpt-3.5-turbo", "cl100k_base", true],
    ["meta/llama-3.1-70b-instruct", "o200k_base", false],
    ["mistral/mistral-large", "o200k_base", false],
    ["openai/gpt-oss-120b", "o200k_base", false],
    ["o1x", "o200k_base", false],
  ])("%s -> %s (own tokenizer: %s)", (model, tokenizer, known) => {
    expect(selectLocalTokenizer(model)).toEqual({ tokenizer, known });
  });
});

describe("countTokensLocally", () => {
  // The first count of each family loads its rank file (seconds on a loaded machine): once, here,
  // with room, so that each test below is bound by the default timeout for what it asserts.
  beforeAll(async () => {
    await countTokensLocally({ messages: [{ role: "user", content: "warm" }] }, "openai/gpt-4o");
    await countTokensLocally({ messages: [{ role: "user", content: "warm" }] }, "openai/gpt-4");
  }, 120_000);

  it("counts text messages with OpenAI's per-message overhead, exactly for a known family", async () => {
    const body = {
      model: "openai/gpt-4o",
      system: "You are terse.",
      messages: [
        { role: "user", content: "What is the capital of France?" },
        { role: "assistant", content: "Paris." },
        { role: "user", content: [{ type: "text", text: "And of Japan?" }] },
      ],
    };
    const expected =
      3 +
      [
        ["system", "You are terse."],
        ["user", "What is the capital of France?"],
        ["assistant", "Paris."],
        ["user", "And of Japan?"],
      ].reduce((sum, [role, text]) => sum + 3 + tokens(role ?? "") + tokens(text ?? ""), 0);
    expect(await countTokensLocally(body, "openai/gpt-4o")).toEqual({ inputTokens: expected, exact: true, tokenizer: "o200k_base" });
  });

  it("uses cl100k_base for gpt-4, which counts differently from o200k_base", async () => {
    const body = { model: "m", messages: [{ role: "user", content: "Tokenization differs between encodings: 東京, Привет, 🤖." }] };
    const gpt4 = await countTokensLocally(body, "gpt-4");
    const gpt4o = await countTokensLocally(body, "gpt-4o");
    expect(gpt4.tokenizer).toBe("cl100k_base");
    expect(gpt4.exact).toBe(true);
    expect(gpt4.inputTokens).not.toBe(gpt4o.inputTokens);
  });

  it("marks non-OpenAI families, tools, tool calls and images as estimates", async () => {
    const text = { model: "m", messages: [{ role: "user", content: "Hello" }] };
    expect((await countTokensLocally(text, "meta/llama-3.1-8b")).exact).toBe(false);

    const withTools = {
      ...text,
      tools: [{ name: "get_weather", description: "Weather for a city.", input_schema: { type: "object", properties: { location: { type: "string" } } } }],
    };
    const toolCount = await countTokensLocally(withTools, "gpt-4o");
    expect(toolCount.exact).toBe(false);
    expect(toolCount.inputTokens).toBeGreaterThan((await countTokensLocally(text, "gpt-4o")).inputTokens + tokens("get_weather"));

    const withImage = {
      model: "m",
      messages: [{ role: "user", content: [{ type: "image", source: { type: "url", url: "https://x.test/a.png" } }] }],
    };
    expect((await countTokensLocally(withImage, "gpt-4o")).exact).toBe(false);
  });

  it("refuses what the messages translation refuses", async () => {
    await expect(countTokensLocally({ model: "m", messages: [], top_k: 3 }, "gpt-4o")).rejects.toSatisfy(
      (error) => GatewayError.isInstance(error) && error.param === "top_k",
    );
  });

  it("counts special-token text as plain text instead of throwing", async () => {
    const result = await countTokensLocally({ model: "m", messages: [{ role: "user", content: "<|endoftext|>" }] }, "gpt-4o");
    expect(result.inputTokens).toBeGreaterThan(7);
  });
});
