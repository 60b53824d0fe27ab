import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { JWT } from "google-auth-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServiceAccount } from "./google-service-account.js";
import { type VertexMock, startVertexMock } from "./vertex-mock.js";

// The mock checked by the official client: AnthropicVertex (its own request rewriting to
// rawPredict / streamRawPredict / count-tokens) authenticated by google-auth-library's JWT client
// against the mock's token endpoint, so the mock cannot drift from what the SDK sends and reads.

const account = createTestServiceAccount();
let mock: VertexMock;
let client: AnthropicVertex;

beforeAll(async () => {
  mock = await startVertexMock({ project: "test-project", location: "us-east5", serviceAccount: account });
  // The library posts to Google's endpoint whatever the key says: the loopback mock stands in for it.
  const tokenFetch = ((input: string | URL | Request, init?: RequestInit) =>
    fetch(String(input) === "https://oauth2.googleapis.com/token" ? mock.tokenUrl : input, init)) as typeof fetch;
  const authClient = new JWT({
    email: account.clientEmail,
    key: account.privateKeyPem,
    scopes: ["https://www.googleapis.com/auth/cloud-platform"],
    transporterOptions: { fetchImplementation: tokenFetch },
  });
  client = new AnthropicVertex({ region: "us-east5", projectId: "test-project", baseURL: `${mock.url}/v1`, authClient, maxRetries: 0 });
});

afterAll(async () => {
  await mock?.close();
});

const weatherTool = { name: "get_weather", description: "Weather of a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } } } };

describe("vertex mock, checked with @anthropic-ai/vertex-sdk", () => {
  it("answers rawPredict with a message, the token the SDK got from the mock's token endpoint accepted", async () => {
    const message = await client.messages.create({ model: "claude-sonnet-4@20250514", max_tokens: 64, messages: [{ role: "user", content: "Hi" }] });
    expect(message.content).toEqual([{ type: "text", text: "Hello from Claude on Vertex." }]);
    expect(message.usage.input_tokens).toBe(21);
    const call = mock.calls.at(-1)!;
    expect(call).toMatchObject({ method: "rawPredict", model: "claude-sonnet-4@20250514" });
    expect(call.path).toBe("/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict");
    expect(call.body.model).toBeUndefined();
    expect(typeof call.body.anthropic_version).toBe("string");
    expect(call.headers.authorization).toBe(`Bearer ${mock.issuedTokens.at(-1)}`);
    expect(mock.assertions.at(-1)).toMatchObject({ iss: account.clientEmail, aud: "https://oauth2.googleapis.com/token" });
  });

  it("streams streamRawPredict events the SDK assembles, tool input included", async () => {
    const stream = client.messages.stream({
      model: "claude-sonnet-4@20250514",
      max_tokens: 64,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weatherTool],
      tool_choice: { type: "tool", name: "get_weather" },
    });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content).toEqual([{ type: "tool_use", id: "toolu_vrtx_01", name: "get_weather", input: { city: "Paris" } }]);
    expect(mock.calls.at(-1)).toMatchObject({ method: "streamRawPredict" });
  });

  it("counts tokens at count-tokens:rawPredict, the model named in the body", async () => {
    const count = await client.messages.countTokens({ model: "claude-sonnet-4@20250514", messages: [{ role: "user", content: "Hi" }] });
    expect(count.input_tokens).toBeGreaterThan(0);
    expect(mock.calls.at(-1)).toMatchObject({ method: "count-tokens", model: "claude-sonnet-4@20250514" });
  });

  it("rejects a token it did not issue with Google's 401 body", async () => {
    const unknownToken = new JWT({});
    unknownToken.getRequestHeaders = async () => new Headers({ authorization: "Bearer ya29.not-issued-by-the-mock" });
    const stranger = new AnthropicVertex({ region: "us-east5", projectId: "test-project", baseURL: `${mock.url}/v1`, authClient: unknownToken, maxRetries: 0 });
    const error = await stranger.messages.create({ model: "claude-sonnet-4@20250514", max_tokens: 8, messages: [{ role: "user", content: "Hi" }] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, error: { error: { code: 401, status: "UNAUTHENTICATED" } } });
  });
});
