import { describe, expect, it } from "vitest";
import type { AdapterConnection } from "../../provider-adapter.js";
import { createGeminiApiEndpoint } from "./gemini-endpoint.js";
import { provider } from "./provider.js";

const connection = (fields: Partial<AdapterConnection> = {}): AdapterConnection => ({ id: "c", name: "gemini", kind: "gemini", baseUrl: null, credential: "AIzaKey", headers: {}, ...fields });

describe("the gemini provider", () => {
  it("tests a connection by listing its models with the key header, never the key in the URL", async () => {
    const settings = provider.settingsSchema.parse(connection());
    const request = await provider.connectionTest!(connection(), settings, { fetch });
    expect(request).toEqual({ url: "https://generativelanguage.googleapis.com/v1beta/models", method: "GET", headers: { accept: "application/json", "x-goog-api-key": "AIzaKey" } });
  });

  it("reads its settings leniently: the API version (default v1beta) and logprobs (default on)", () => {
    expect(provider.settingsSchema.parse(connection())).toEqual({ logprobs: true, apiVersion: "v1beta" });
    expect(provider.settingsSchema.parse(connection({ logprobs: false, settings: { apiVersion: "v1" } }))).toEqual({ logprobs: false, apiVersion: "v1" });
    expect(provider.settingsSchema.parse(connection({ settings: { apiVersion: "v9" } }))).toEqual({ logprobs: true, apiVersion: "v1beta" });
  });

  it("builds method URLs under the base URL's API version, or the settings' one, with the model id escaped", () => {
    expect(createGeminiApiEndpoint(connection()).url("models/gemini-2.5-flash", "streamGenerateContent")).toBe(
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
    expect(createGeminiApiEndpoint(connection({ baseUrl: "https://proxy.example/google/v1/" })).url("gemini-2.5-pro", "countTokens")).toBe("https://proxy.example/google/v1/models/gemini-2.5-pro:countTokens");
    expect(createGeminiApiEndpoint(connection({ baseUrl: "https://proxy.example" }), "v1").url("a/../b?x", "generateContent")).toBe("https://proxy.example/v1/models/a%2F..%2Fb%3Fx:generateContent");
  });
});
