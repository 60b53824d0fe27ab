import { afterEach, describe, expect, it } from "vitest";
import { chatCompletions, countTokens, messages } from "../../../test/adapter-calls.js";
import { callContext, collect, targetFor } from "../../../test/fake-upstream.js";
import { createTestServiceAccount } from "../../../test/mocks/google-service-account.js";
import { type VertexMock, startVertexMock } from "../../../test/mocks/vertex-mock.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { type HttpTransport, createHttpTransport } from "../../http-transport.js";
import { createOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import { createProviderAdapter } from "../provider-registry.js";

// Gemini on Vertex AI: the `gemini` provider's models over Vertex's publisher URLs, with the
// connection's service-account tokens (the same connection serves Claude).

const account = createTestServiceAccount();
let mock: VertexMock | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await mock?.close();
  transport = undefined;
  mock = undefined;
});

async function setup() {
  mock = await startVertexMock({ project: "test-project", location: "us-east5", serviceAccount: account });
  transport = createHttpTransport();
  const connection: AdapterConnection = {
    id: "conn_vertex",
    name: "vertex-test",
    kind: "vertex",
    baseUrl: mock.url,
    credential: account.credential(mock.tokenUrl),
    headers: {},
    settings: { project: "test-project", location: "us-east5" },
  };
  const adapter = createProviderAdapter(connection, { transport, fetch: createOutboundFetch() });
  return { adapter, target: targetFor(connection, "google/gemini-2.5-flash"), mock };
}

describe("vertex: Gemini models", () => {
  it("answers chat completions through generateContent at the publisher model's URL with the issued token", async () => {
    const { adapter, target, mock } = await setup();
    const result = await chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.body).toMatchObject({ object: "chat.completion", choices: [{ message: { content: "Hello from Gemini on Vertex" }, finish_reason: "stop" }] });
    expect(result.usage).toMatchObject({ inputTokens: 5, outputTokens: 4 });
    expect(mock.calls).toHaveLength(1);
    expect(mock.calls[0]).toMatchObject({
      method: "generateContent",
      path: "/v1/projects/test-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent",
    });
    expect(mock.calls[0]?.headers.authorization).toBe(`Bearer ${mock.issuedTokens[0]}`);
    expect(mock.calls[0]?.body.contents).toEqual([{ role: "user", parts: [{ text: "Hi" }] }]);
  });

  it("streams a messages answer through streamGenerateContent (alt=sse)", async () => {
    const { adapter, target, mock } = await setup();
    const result = await messages(adapter, { model: "m", max_tokens: 20, stream: true, messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    if (result.kind !== "stream") throw new Error("expected a stream");
    const events = await collect(renderStreamResult(result, { to: "anthropic-messages" }).events);
    const text = events
      .map((event) => JSON.parse(event.data) as { delta?: { type?: string; text?: string } })
      .filter((data) => data.delta?.type === "text_delta")
      .map((data) => data.delta?.text)
      .join("");
    expect(text).toBe("Hello from Gemini on Vertex");
    expect(events.at(-1)?.event).toBe("message_stop");
    expect(mock.calls[0]?.path).toMatch(/:streamGenerateContent\?alt=sse$/);
  });

  it("counts tokens with Vertex's countTokens, the contents at the top level", async () => {
    const { adapter, target, mock } = await setup();
    const count = await countTokens(adapter, { model: "m", messages: [{ role: "user", content: "Count me" }] }, target, callContext());
    expect(count.local).toBe(false);
    expect(count.inputTokens).toBeGreaterThan(0);
    expect(mock.calls[0]).toMatchObject({ method: "countTokens", body: { contents: [{ role: "user", parts: [{ text: "Count me" }] }] } });
  });
});
