import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GeminiMock, startGeminiMock } from "./gemini-mock.js";

// The mock is checked by Google's own client, so it cannot drift from the real wire format:
// whatever the client sends must be understood, whatever the mock answers must parse.

let mock: GeminiMock;
let client: GoogleGenAI;

beforeAll(async () => {
  mock = await startGeminiMock();
  client = new GoogleGenAI({ apiKey: mock.apiKey, httpOptions: { baseUrl: mock.url } });
});

afterAll(async () => {
  await mock.close();
});

describe("the Gemini mock, driven by @google/genai", () => {
  it("answers generateContent with text and usage at the client's URL and with its key header", async () => {
    const response = await client.models.generateContent({ model: "gemini-2.5-flash", contents: "Say hello", config: { systemInstruction: "Be brief.", temperature: 0.2 } });
    expect(response.text).toBe("Hello from Gemini, how can I help?");
    expect(response.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe(mock.apiKey);
    expect(sent.body.systemInstruction.parts[0].text).toBe("Be brief.");
    expect(sent.body.generationConfig.temperature).toBe(0.2);
  });

  it("answers function calls the client reads as functionCalls", async () => {
    const response = await client.models.generateContent({
      model: "gemini-2.5-flash",
      contents: "What is the weather in Paris and Rome?",
      config: { tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }] },
    });
    expect(response.functionCalls?.map((call) => call.args)).toEqual([{ city: "Paris" }, { city: "Rome" }]);
  });

  it("streams generateContentStream as SSE chunks the client joins", async () => {
    const stream = await client.models.generateContentStream({ model: "gemini-2.5-flash", contents: "Say hello" });
    let text = "";
    let finishReason: string | undefined;
    for await (const chunk of stream) {
      text += chunk.text ?? "";
      finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
    }
    expect(text).toBe("Hello from Gemini, how can I help?");
    expect(finishReason).toBe("STOP");
    expect(mock.requests.at(-1)!.query.get("alt")).toBe("sse");
  });

  it("answers embedContent for one text and batchEmbedContents for several", async () => {
    const one = await client.models.embedContent({ model: "gemini-embedding-001", contents: "hello", config: { outputDimensionality: 4 } });
    expect(one.embeddings?.[0]?.values).toHaveLength(4);
    const several = await client.models.embedContent({ model: "gemini-embedding-001", contents: ["hello", "world!"] });
    expect(several.embeddings).toHaveLength(2);
    expect(mock.requests.at(-1)!.path).toBe("/v1beta/models/gemini-embedding-001:batchEmbedContents");
  });

  it("answers countTokens", async () => {
    const counted = await client.models.countTokens({ model: "gemini-2.5-flash", contents: "one two three" });
    expect(counted.totalTokens).toBeGreaterThan(0);
  });

  it("refuses another key with Google's error, which the client raises", async () => {
    const stranger = new GoogleGenAI({ apiKey: "not-the-key", httpOptions: { baseUrl: mock.url } });
    await expect(stranger.models.generateContent({ model: "gemini-2.5-flash", contents: "Hi" })).rejects.toThrow(/API key not valid/);
  });
});
