import { describe, expect, it } from "vitest";
import { callContext } from "../../../test/fake-upstream.js";
import { vertexGeminiEndpoint } from "./vertex-gemini-endpoint.js";

const settings = { project: "test-project", location: "europe-west4" };
const tokens = { token: async () => "ya29.test-token" };

describe("vertexGeminiEndpoint", () => {
  it("names the Gemini methods on Vertex's regional host, the stream as SSE and embeddings as :predict", () => {
    const endpoint = vertexGeminiEndpoint({ connection: { name: "vertex-test", kind: "vertex", baseUrl: null, headers: {} }, settings, tokens });
    const root = "https://europe-west4-aiplatform.googleapis.com/v1/projects/test-project/locations/europe-west4/publishers/google/models";
    expect(endpoint.url("gemini-2.5-flash", "generateContent")).toBe(`${root}/gemini-2.5-flash:generateContent`);
    expect(endpoint.url("gemini-2.5-flash", "streamGenerateContent")).toBe(`${root}/gemini-2.5-flash:streamGenerateContent?alt=sse`);
    expect(endpoint.url("gemini-2.5-flash", "countTokens")).toBe(`${root}/gemini-2.5-flash:countTokens`);
    expect(endpoint.url("text-embedding-005", "embedContent")).toBe(`${root}/text-embedding-005:predict`);
    expect(endpoint.url("text-embedding-005", "batchEmbedContents")).toBe(`${root}/text-embedding-005:predict`);
  });

  it("uses the global host for the global location, and a connection's base URL with or without /v1", () => {
    const global = vertexGeminiEndpoint({ connection: { name: "v", kind: "vertex", baseUrl: null, headers: {} }, settings: { project: "p", location: "global" }, tokens });
    expect(global.url("gemini-2.5-pro", "generateContent")).toBe("https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-2.5-pro:generateContent");
    for (const baseUrl of ["http://127.0.0.1:9/", "http://127.0.0.1:9/v1"]) {
      const local = vertexGeminiEndpoint({ connection: { name: "v", kind: "vertex", baseUrl, headers: {} }, settings: { project: "p", location: "us-east5" }, tokens });
      expect(local.url("gemini-2.5-pro", "countTokens")).toBe("http://127.0.0.1:9/v1/projects/p/locations/us-east5/publishers/google/models/gemini-2.5-pro:countTokens");
    }
  });

  it("sends the bearer token and the connection's headers", async () => {
    const endpoint = vertexGeminiEndpoint({ connection: { name: "v", kind: "vertex", baseUrl: null, headers: { "X-Goog-User-Project": "billing-project" } }, settings, tokens });
    expect(await endpoint.headers(callContext())).toEqual({ authorization: "Bearer ya29.test-token", "x-goog-user-project": "billing-project" });
  });

  it("fails naming the missing setting", () => {
    const endpoint = vertexGeminiEndpoint({ connection: { name: "vertex-test", kind: "vertex", baseUrl: null, headers: {} }, settings: { project: "p", location: null }, tokens });
    expect(() => endpoint.url("gemini-2.5-flash", "generateContent")).toThrow(/settings\.location/);
  });
});
