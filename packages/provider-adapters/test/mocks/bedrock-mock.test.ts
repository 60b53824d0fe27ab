import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, CountTokensCommand, InvokeModelCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BedrockMock, startBedrockMock } from "./bedrock-mock.js";
import { bedrockMockText, bedrockMockUsage, converseEvents } from "./bedrock-mock-answers.js";

// The mock is checked with AWS's own client: its request signing, JSON protocol, event-stream
// decoding (CRC checked) and error parsing, so the mock cannot drift from the real API.

const keys = { AKIAMOCKEXAMPLE00001: { secretAccessKey: "mock-secret-access-key-0123456789" } };
let mock: BedrockMock;
let client: BedrockRuntimeClient;
const claude = "anthropic.claude-sonnet-4-20250514-v1:0";

beforeAll(async () => {
  mock = await startBedrockMock({ keys, region: "eu-west-1" });
  client = new BedrockRuntimeClient({
    region: "eu-west-1",
    endpoint: mock.url,
    credentials: { accessKeyId: "AKIAMOCKEXAMPLE00001", secretAccessKey: keys.AKIAMOCKEXAMPLE00001.secretAccessKey },
    maxAttempts: 1,
    // HTTP/1.1: the client defaults to HTTP/2, which the mock does not speak (the wire format is the same over both).
    requestHandler: new NodeHttpHandler(),
  });
});

afterAll(async () => {
  client?.destroy();
  await mock?.close();
});

beforeEach(() => mock.use(null));

describe("the Bedrock mock, driven by @aws-sdk/client-bedrock-runtime", () => {
  it("answers Converse with text and usage, the model id decoded from the signed path", async () => {
    const answer = await client.send(new ConverseCommand({ modelId: claude, messages: [{ role: "user", content: [{ text: "Hi" }] }], inferenceConfig: { maxTokens: 50 } }));
    expect(answer.output?.message?.content?.[0]?.text).toBe(bedrockMockText);
    expect(answer.stopReason).toBe("end_turn");
    expect(answer.usage).toMatchObject(bedrockMockUsage);
    expect(mock.requests.at(-1)).toMatchObject({ modelId: claude, operation: "converse", body: { inferenceConfig: { maxTokens: 50 } } });
  });

  it("answers a forced tool with a tool use matching the tool's schema", async () => {
    const answer = await client.send(
      new ConverseCommand({
        modelId: claude,
        messages: [{ role: "user", content: [{ text: "Weather?" }] }],
        toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: { type: "object", properties: { city: { type: "string" } } } } } }], toolChoice: { tool: { name: "get_weather" } } },
      }),
    );
    expect(answer.stopReason).toBe("tool_use");
    expect(answer.output?.message?.content?.[0]?.toolUse).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
  });

  it("streams ConverseStream events the client decodes (CRC checked), parallel tool uses included", async () => {
    mock.use(() => ({
      events: converseEvents(
        [
          { text: "Checking both." },
          { toolUse: { toolUseId: "tooluse_a", name: "get_weather", input: { city: "Paris" } } },
          { toolUse: { toolUseId: "tooluse_b", name: "get_weather", input: { city: "Oslo" } } },
        ],
        "tool_use",
      ),
    }));
    const answer = await client.send(new ConverseStreamCommand({ modelId: claude, messages: [{ role: "user", content: [{ text: "Hi" }] }] }));
    let text = "";
    const toolInputs = new Map<number, string>();
    const kinds: string[] = [];
    for await (const event of answer.stream!) {
      kinds.push(Object.keys(event).find((key) => (event as unknown as Record<string, unknown>)[key] !== undefined)!);
      if (event.contentBlockDelta?.delta?.text !== undefined) text += event.contentBlockDelta.delta.text;
      const input = event.contentBlockDelta?.delta?.toolUse?.input;
      if (input !== undefined) toolInputs.set(event.contentBlockDelta!.contentBlockIndex!, (toolInputs.get(event.contentBlockDelta!.contentBlockIndex!) ?? "") + input);
      if (event.metadata !== undefined) expect(event.metadata.usage).toMatchObject(bedrockMockUsage);
      if (event.messageStop !== undefined) expect(event.messageStop.stopReason).toBe("tool_use");
    }
    expect(text).toBe("Checking both.");
    expect([...toolInputs.values()].map((input) => JSON.parse(input))).toEqual([{ city: "Paris" }, { city: "Oslo" }]);
    expect(kinds[0]).toBe("messageStart");
    expect(kinds.at(-1)).toBe("metadata");
  });

  it("sends in-stream exceptions the client raises as their modelled type", async () => {
    mock.use(() => ({ events: [{ event: "messageStart", payload: { role: "assistant" } }, { exception: "throttlingException", message: "Too many tokens, please wait before trying again." }] }));
    const answer = await client.send(new ConverseStreamCommand({ modelId: claude, messages: [{ role: "user", content: [{ text: "Hi" }] }] }));
    const error = await (async () => {
      try {
        for await (const _event of answer.stream!) void _event;
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error?.name).toBe("ThrottlingException");
    expect(error?.message).toBe("Too many tokens, please wait before trying again.");
  });

  it("a corrupt message fails the client's checksum", async () => {
    mock.use(() => ({ events: converseEvents([{ text: "Hello" }], "end_turn"), corruptMessage: 1 }));
    const answer = await client.send(new ConverseStreamCommand({ modelId: claude, messages: [{ role: "user", content: [{ text: "Hi" }] }] }));
    await expect(
      (async () => {
        for await (const _event of answer.stream!) void _event;
      })(),
    ).rejects.toThrow(/checksum/i);
  });

  it("answers InvokeModel with Titan and Cohere embedding bodies and the token count header", async () => {
    const titan = await client.send(new InvokeModelCommand({ modelId: "amazon.titan-embed-text-v2:0", contentType: "application/json", body: JSON.stringify({ inputText: "two words", dimensions: 256 }) }));
    const titanBody = JSON.parse(new TextDecoder().decode(titan.body));
    expect(titanBody.embedding).toHaveLength(256);
    expect(titanBody.inputTextTokenCount).toBe(2);
    const cohere = await client.send(new InvokeModelCommand({ modelId: "cohere.embed-english-v3", contentType: "application/json", body: JSON.stringify({ texts: ["a", "b c"], input_type: "search_document" }) }));
    const cohereBody = JSON.parse(new TextDecoder().decode(cohere.body));
    expect(cohereBody.embeddings).toHaveLength(2);
    expect(cohereBody.response_type).toBe("embeddings_floats");
  });

  it("answers CountTokens for a Converse input", async () => {
    const answer = await client.send(new CountTokensCommand({ modelId: claude, input: { converse: { messages: [{ role: "user", content: [{ text: "How many tokens is this?" }] }] } } }));
    expect(answer.inputTokens).toBeGreaterThan(0);
  });

  it("maps its error answers to the client's modelled exceptions", async () => {
    mock.use(() => ({ json: { message: "Rate exceeded" }, status: 429, errorType: "ThrottlingException" }));
    await expect(client.send(new ConverseCommand({ modelId: claude, messages: [{ role: "user", content: [{ text: "Hi" }] }] }))).rejects.toMatchObject({ name: "ThrottlingException", message: "Rate exceeded" });
  });

  it("refuses a request signed with the wrong secret, as AWS does", async () => {
    const wrong = new BedrockRuntimeClient({ region: "eu-west-1", endpoint: mock.url, credentials: { accessKeyId: "AKIAMOCKEXAMPLE00001", secretAccessKey: "not-the-secret" }, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
    const before = mock.requests.length;
    await expect(wrong.send(new ConverseCommand({ modelId: claude, messages: [{ role: "user", content: [{ text: "Hi" }] }] }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    expect(mock.refused.at(-1)).toBe("InvalidSignatureException");
    expect(mock.requests.length).toBe(before);
    wrong.destroy();
  });

  it("refuses a request signed for another region", async () => {
    const elsewhere = new BedrockRuntimeClient({ region: "us-west-2", endpoint: mock.url, credentials: { accessKeyId: "AKIAMOCKEXAMPLE00001", secretAccessKey: keys.AKIAMOCKEXAMPLE00001.secretAccessKey }, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
    await expect(elsewhere.send(new ConverseCommand({ modelId: claude, messages: [{ role: "user", content: [{ text: "Hi" }] }] }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    elsewhere.destroy();
  });
});
