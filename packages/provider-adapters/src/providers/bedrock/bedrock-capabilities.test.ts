import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bedrockConnection, bedrockTarget, bedrockTestKeys } from "../../../test/bedrock-connection.js";
import { countTokens, decide, embeddings } from "../../../test/adapter-calls.js";
import { callContext, rejectionOf } from "../../../test/fake-upstream.js";
import { type BedrockMock, startBedrockMock } from "../../../test/mocks/bedrock-mock.js";
import type { DecisionRequest } from "../../decision/decision-contract.js";
import { createHttpTransport, type HttpTransport } from "../../http-transport.js";
import { servedEndpoints } from "../served-endpoints.js";
import { createProviderAdapter, providerOf } from "../provider-registry.js";
import { bedrockModelIdOf } from "./bedrock-model-id.js";
import { bedrockSettingsSchema } from "./bedrock-settings.js";

let mock: BedrockMock;
let transport: HttpTransport;

beforeAll(async () => {
  mock = await startBedrockMock({ keys: bedrockTestKeys, region: "ap-northeast-1" });
  transport = createHttpTransport();
});
afterAll(async () => {
  await transport?.close();
  await mock?.close();
});
beforeEach(() => mock.use(null));

function setup(model: string) {
  const connection = bedrockConnection(mock);
  return { adapter: createProviderAdapter(connection, { transport }), target: bedrockTarget(connection, model) };
}

describe("Bedrock embeddings (InvokeModel)", () => {
  it("embeds each input with Titan v2 and answers an OpenAI embeddings list with the token count", async () => {
    const { adapter, target } = setup("amazon/titan-embed-text-v2:0");
    const result = await embeddings(adapter, { model: "m", input: ["one two", "three"], dimensions: 256 }, target, callContext());
    const titanCalls = mock.requests.slice(-2);
    expect(titanCalls.map((request) => [request.modelId, request.operation, request.body])).toEqual([
      ["amazon.titan-embed-text-v2:0", "invoke", { inputText: "one two", dimensions: 256 }],
      ["amazon.titan-embed-text-v2:0", "invoke", { inputText: "three", dimensions: 256 }],
    ]);
    if (result.kind !== "json") throw new Error("expected JSON");
    const body = result.body as any;
    expect(body).toMatchObject({ object: "list", model: "bedrock-test/amazon/titan-embed-text-v2:0", usage: { prompt_tokens: 3, total_tokens: 3 } });
    expect(body.data.map((entry: any) => [entry.index, entry.embedding.length])).toEqual([[0, 256], [1, 256]]);
    expect(result.usage.inputTokens).toBe(3);
  });

  it("embeds all inputs in one Cohere call, base64 when asked (as the openai client asks)", async () => {
    const { adapter, target } = setup("cohere/embed-english-v3");
    const result = await embeddings(adapter, { model: "m", input: ["a b", "c"], encoding_format: "base64" }, target, callContext());
    expect(mock.requests.at(-1)!.body).toEqual({ texts: ["a b", "c"], input_type: "search_document", truncate: "NONE" });
    if (result.kind !== "json") throw new Error("expected JSON");
    const first = (result.body as any).data[0].embedding as string;
    const floats = new Float32Array(Buffer.from(first, "base64").buffer.slice(0));
    expect(floats.length).toBe(1024);
    expect(result.usage.inputTokens).toBe(3);
  });

  it("refuses token-array inputs and dimensions a model cannot give", async () => {
    const before = mock.requests.length;
    expect(await rejectionOf(embeddings(setup("amazon/titan-embed-text-v2:0").adapter, { model: "m", input: [[1, 2]] }, setup("amazon/titan-embed-text-v2:0").target, callContext()))).toMatchObject({ code: "unsupported_feature", param: "input" });
    expect(await rejectionOf(embeddings(setup("cohere/embed-english-v3").adapter, { model: "m", input: "x", dimensions: 256 }, setup("cohere/embed-english-v3").target, callContext()))).toMatchObject({ code: "unsupported_feature", param: "dimensions" });
    expect(mock.requests.length).toBe(before);
  });
});

describe("Bedrock token counts", () => {
  it("asks CountTokens for Claude, with the request as a Converse input", async () => {
    const { adapter, target } = setup("anthropic/claude-sonnet-4-20250514-v1:0");
    const count = await countTokens(adapter, { model: "m", system: "Be brief.", messages: [{ role: "user", content: "How many tokens?" }] }, target, callContext());
    const sent = mock.requests.at(-1)!;
    expect(sent.operation).toBe("count-tokens");
    expect(sent.body).toEqual({ input: { converse: { system: [{ text: "Be brief." }], messages: [{ role: "user", content: [{ text: "How many tokens?" }] }] } } });
    expect(count).toEqual({ inputTokens: Math.ceil(JSON.stringify(sent.body.input).length / 4), local: false });
  });

  it("counts locally for a model CountTokens does not count", async () => {
    const { adapter, target } = setup("meta/llama3-3-70b-instruct-v1:0");
    const before = mock.requests.length;
    const count = await countTokens(adapter, { model: "m", messages: [{ role: "user", content: "Hello there" }] }, target, callContext());
    expect(count).toMatchObject({ local: true, exact: false });
    expect(count.inputTokens).toBeGreaterThan(0);
    expect(mock.requests.length).toBe(before);
  }, 30_000);
});

describe("Bedrock decisions (stated probabilities through a forced tool)", () => {
  it("forces record_probabilities with one number per option and answers with the stated distribution", async () => {
    mock.use(() => ({
      json: {
        output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_1", name: "record_probabilities", input: { A: 0.2, B: 0.6 } } }] } },
        stopReason: "tool_use",
        usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
      },
    }));
    const { adapter, target } = setup("anthropic/claude-sonnet-4-20250514-v1:0");
    const request = { model: "x", state: "The parcel arrived broken.", questions: { next: { type: "choice", instructions: "What next?", criteria: { refund: "Give the money back", replace: "Send a new one" } } } } as unknown as DecisionRequest;
    const result = await decide(adapter, request, target, callContext());
    const sent = mock.requests.at(-1)!.body;
    expect(sent.toolConfig.toolChoice).toEqual({ tool: { name: "record_probabilities" } });
    expect(sent.toolConfig.tools[0].toolSpec.inputSchema.json).toMatchObject({ type: "object", required: ["A", "B"] });
    expect(sent.inferenceConfig).toEqual({ maxTokens: 256 + 32, temperature: 0 });
    const answer = result.response.answers.next as any;
    expect(answer.probability_source).toBe("stated");
    expect(answer.probabilities.refund).toBeCloseTo(0.25, 10);
    expect(answer.probabilities.replace).toBeCloseTo(0.75, 10);
    expect(result.usage).toMatchObject({ inputTokens: 40, outputTokens: 12 });
  });

  it("a guardrail stop is a refusal", async () => {
    mock.use(() => ({ json: { output: { message: { role: "assistant", content: [{ text: "Sorry." }] } }, stopReason: "guardrail_intervened", usage: { inputTokens: 5, outputTokens: 2 } } }));
    const { adapter, target } = setup("anthropic/claude-sonnet-4-20250514-v1:0");
    const request = { model: "x", state: "s", questions: { ok: { type: "noul", instructions: "Is it fine?" } } } as unknown as DecisionRequest;
    expect((await decide(adapter, request, target, callContext())).response.answers.ok).toEqual({ type: "refusal" });
  });
});

describe("the bedrock provider", () => {
  it("serves chat, messages, responses and decisions for chat models and embeddings for embedding models", () => {
    const connection = bedrockConnection(mock);
    expect(servedEndpoints(connection, "anthropic/claude-sonnet-4-20250514-v1:0")).toEqual(["chat_completions", "messages", "responses", "decisions"]);
    expect(servedEndpoints(connection, "amazon/titan-embed-text-v2:0")).toEqual(["embeddings"]);
    expect(providerOf("bedrock")?.models).toContain("amazon/nova-pro-v1:0");
    expect(providerOf("bedrock")?.defaultPrices?.["anthropic/claude-sonnet-4-20250514-v1:0"]).toMatchObject({ input: 3, output: 15 });
  });

  it("calls the served <vendor>/<model> as Bedrock's <vendor>.<model> id, or the connection's own name for it (an inference profile ARN)", () => {
    const connection = bedrockConnection(mock);
    // The gateway sends other providers the name without its vendor segment; Bedrock needs it.
    expect(bedrockModelIdOf({ connection, upstreamModel: "claude-sonnet-4-20250514-v1:0", qualifiedModel: "bedrock-test/anthropic/claude-sonnet-4-20250514-v1:0" })).toBe("anthropic.claude-sonnet-4-20250514-v1:0");
    const arn = "arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.anthropic.claude-sonnet-4-20250514-v1:0";
    const named = bedrockConnection(mock, { upstreamModelNames: { "anthropic/claude-sonnet-4": arn } });
    expect(bedrockModelIdOf({ connection: named, upstreamModel: arn, qualifiedModel: "bedrock-test/anthropic/claude-sonnet-4" })).toBe(arn);
  });

  it("reads its settings leniently: a bad region takes the default", () => {
    expect(bedrockSettingsSchema.parse({ settings: { region: "eu-west-3" } })).toMatchObject({ region: "eu-west-3", defaultMaxTokens: 4096 });
    expect(bedrockSettingsSchema.parse({ settings: { region: "not a region" }, defaultMaxTokens: 1000 })).toMatchObject({ region: "us-east-1", defaultMaxTokens: 1000 });
    expect(bedrockSettingsSchema.parse({})).toMatchObject({ region: "us-east-1" });
  });

  it("builds a signed connection test request the mock accepts", async () => {
    const connection = bedrockConnection(mock);
    const provider = providerOf("bedrock")!;
    const test = await provider.connectionTest!(connection, provider.settingsSchema.parse(connection), { fetch });
    expect(test).toMatchObject({ url: `${mock.url}/foundation-models`, method: "GET" });
    const response = await fetch(test.url, { method: test.method, headers: test.headers });
    expect(response.status).toBe(200);
    const refused = await fetch(test.url, { method: test.method, headers: { ...test.headers, authorization: String(test.headers.authorization).replace(/Signature=\w{4}/, "Signature=0000") } });
    expect(refused.status).toBe(403);
  });
});
