import { afterEach, describe, expect, it } from "vitest";
import { chatCompletions, countTokens, decide, messages, responses } from "../../../test/adapter-calls.js";
import { callContext, collect, rejectionOf, targetFor } from "../../../test/fake-upstream.js";
import { createTestServiceAccount } from "../../../test/mocks/google-service-account.js";
import type { AnthropicAnswer } from "../../../test/mocks/vertex-mock-anthropic.js";
import { type VertexMock, type VertexMockOptions, startVertexMock } from "../../../test/mocks/vertex-mock.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import type { DecisionRequest } from "../../decision/decision-contract.js";
import { type HttpTransport, createHttpTransport } from "../../http-transport.js";
import { createOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import type { AdapterConnection, ProviderResult } from "../../provider-adapter.js";
import { createProviderAdapter } from "../provider-registry.js";

const account = createTestServiceAccount();
const claude = "anthropic/claude-sonnet-4@20250514";
let mock: VertexMock | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await mock?.close();
  transport = undefined;
  mock = undefined;
});

async function setup(options: { answer?: VertexMockOptions["answer"]; settings?: Record<string, unknown>; model?: string } = {}) {
  mock = await startVertexMock({ project: "test-project", location: "us-east5", serviceAccount: account, ...(options.answer ? { answer: options.answer } : {}) });
  transport = createHttpTransport();
  const connection: AdapterConnection = {
    id: "conn_vertex",
    name: "vertex-test",
    kind: "vertex",
    baseUrl: mock.url,
    credential: account.credential(mock.tokenUrl),
    headers: {},
    settings: options.settings ?? { project: "test-project", location: "us-east5" },
  };
  const adapter = createProviderAdapter(connection, { transport, fetch: createOutboundFetch() });
  return { adapter, target: targetFor(connection, options.model ?? claude), mock };
}

const asStream = (result: ProviderResult) => {
  if (result.kind !== "stream") throw new Error("expected a stream");
  return result;
};
const weatherTool = { type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } } } } };
const usage = { inputTokens: 21, outputTokens: 9, cacheReadTokens: 4, cacheWriteTokens: 0, reasoningTokens: 0 };

describe("vertex: Claude messages pass through rawPredict / streamRawPredict", () => {
  it("sends the caller's body without model, with anthropic_version vertex-2023-10-16 and the issued bearer token", async () => {
    const { adapter, target, mock } = await setup();
    const body = { model: "vertex-test/" + claude, max_tokens: 50, messages: [{ role: "user", content: "Hi" }], unknown_extension: true };
    const result = await messages(adapter, body, target, callContext(), { "anthropic-beta": "context-1m-2025-08-07", "anthropic-version": "2023-06-01" });
    const call = mock.calls[0]!;
    expect(call.path).toBe("/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict");
    expect(call.body).toEqual({ anthropic_version: "vertex-2023-10-16", max_tokens: 50, messages: [{ role: "user", content: "Hi" }], unknown_extension: true });
    expect(call.headers.authorization).toBe(`Bearer ${mock.issuedTokens[0]}`);
    expect(call.headers["anthropic-beta"]).toBe("context-1m-2025-08-07");
    expect(call.headers["x-api-key"]).toBeUndefined();
    expect(result).toMatchObject({ kind: "json", status: 200, body: { id: "msg_vrtx_01", content: [{ type: "text", text: "Hello from Claude on Vertex." }] }, usage });
    expect(result.kind === "json" && typeof result.bodyText).toBe("string");
  });

  it("streams from streamRawPredict as Anthropic frames, usage from the stream", async () => {
    const { adapter, target, mock } = await setup();
    const result = asStream(await messages(adapter, { max_tokens: 50, messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext()));
    expect(result.format).toBe("anthropic-messages");
    const rendered = renderStreamResult(result);
    const events = await collect(rendered.events);
    expect(events.map((event) => event.event)).toContain("message_stop");
    expect(mock.calls[0]!.path).toMatch(/:streamRawPredict$/);
    expect(mock.calls[0]!.body.stream).toBe(true);
    expect(rendered.usage()).toEqual(usage);
  });
});

describe("vertex: chat completions and Responses translated to Claude", () => {
  it("answers a chat completion with tool calls (JSON)", async () => {
    const { adapter, target, mock } = await setup();
    const result = await chatCompletions(adapter, { messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weatherTool], tool_choice: "required" }, target, callContext());
    expect(mock.calls[0]!.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", max_tokens: 4096, tool_choice: { type: "any" }, tools: [{ name: "get_weather" }] });
    expect(mock.calls[0]!.body.model).toBeUndefined();
    if (result.kind !== "json") throw new Error("expected JSON");
    const choice = (result.body as any).choices[0];
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.tool_calls).toEqual([{ id: "toolu_vrtx_01", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }]);
    expect(result.usage).toEqual(usage);
  });

  it("streams a chat completion with a tool call", async () => {
    const { adapter, target } = await setup();
    const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Weather?" }], tools: [weatherTool], tool_choice: "required", stream: true }, target, callContext()));
    const chunks = (await collect(renderStreamResult(result, { to: "openai-chat" }).events)).filter((event) => event.data !== "[DONE]").map((event) => JSON.parse(event.data));
    const argumentsText = chunks.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? []).map((call: any) => call.function?.arguments ?? "").join("");
    expect(JSON.parse(argumentsText)).toEqual({ city: "Paris" });
    expect(chunks.at(-1).choices[0].finish_reason).toBe("tool_calls");
  });

  it("answers a Responses request (JSON) and streams one", async () => {
    const { adapter, target } = await setup();
    const json = await responses(adapter, { input: "Hi", max_output_tokens: 100 }, target, callContext());
    if (json.kind !== "json") throw new Error("expected JSON");
    expect((json.body as any).output[0].content[0].text).toBe("Hello from Claude on Vertex.");
    const stream = asStream(await responses(adapter, { input: "Hi", stream: true }, target, callContext()));
    const types = (await collect(renderStreamResult(stream, { to: "openai-responses" }).events)).map((event) => event.event);
    expect(types).toContain("response.completed");
  });

  it("an in-stream error event and a cut stream end the caller's stream with an error", async () => {
    let cut = false;
    const answer = (call: { model: string; body: Record<string, any> }): AnthropicAnswer => {
      const message = { id: "msg_x", type: "message", role: "assistant", model: call.model, content: [{ type: "text", text: "Partial answer here" }], stop_reason: "end_turn", usage: { input_tokens: 3, output_tokens: 2 } };
      cut = !cut;
      return cut ? { kind: "message", message, errorType: "overloaded_error" } : { kind: "message", message, cutAfter: 3 };
    };
    const { adapter, target } = await setup({ answer });
    for (const code of ["service_unavailable", "upstream_error"]) {
      const result = asStream(await chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream: true }, target, callContext()));
      const events = await collect(renderStreamResult(result, { to: "openai-chat" }).events);
      expect(JSON.parse(events.at(-1)!.data).error.code).toBe(code);
    }
  });
});

describe("vertex: token counts and decisions", () => {
  it("counts tokens at count-tokens:rawPredict with the model in the body", async () => {
    const { adapter, target, mock } = await setup();
    const count = await countTokens(adapter, { model: "x", messages: [{ role: "user", content: "Hello there" }] }, target, callContext());
    expect(count.local).toBe(false);
    expect(count.inputTokens).toBeGreaterThan(0);
    expect(mock.calls[0]).toMatchObject({ method: "count-tokens", model: "claude-sonnet-4@20250514", body: { anthropic_version: "vertex-2023-10-16" } });
    expect(mock.calls[0]!.path).toBe("/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict");
  });

  it("decides with stated probabilities from a forced tool call, one token for every call of the connection", async () => {
    const { adapter, target, mock } = await setup();
    const request = { model: "vertex-test/" + claude, state: "The parcel arrived broken.", questions: { severity: { type: "score", instructions: "How severe?", criteria: ["minor", "major"] } } } as unknown as DecisionRequest;
    const [result] = await Promise.all([
      decide(adapter, request, target, callContext()),
      countTokens(adapter, { messages: [{ role: "user", content: "Hi" }] }, target, callContext()),
      messages(adapter, { max_tokens: 5, messages: [{ role: "user", content: "Hi" }] }, target, callContext()),
    ]);
    const decisionCall = mock.calls.find((call) => call.body.tool_choice?.name === "record_probabilities")!;
    expect(decisionCall.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", temperature: 0 });
    expect(decisionCall.body.model).toBeUndefined();
    expect(result.response).toMatchObject({ answers: { severity: { probabilities: { "0": 0.5, "1": 0.5 } } } });
    expect(mock.issuedTokens).toHaveLength(1);
  });
});

describe("vertex: errors", () => {
  it("maps Google's error body (429 RESOURCE_EXHAUSTED) and never shows the bearer token", async () => {
    const answer = (call: { headers: Record<string, any> }): AnthropicAnswer => ({
      kind: "error",
      status: 429,
      body: { error: { code: 429, message: `Quota exceeded for aiplatform.googleapis.com (${call.headers.authorization}).`, status: "RESOURCE_EXHAUSTED" } },
    });
    const { adapter, target, mock } = await setup({ answer });
    for (const stream of [false, true]) {
      const error = await rejectionOf(chatCompletions(adapter, { messages: [{ role: "user", content: "Hi" }], stream }, target, callContext()));
      expect(error).toMatchObject({ code: "upstream_rate_limited", retryable: true, details: { provider: "vertex-test", upstreamStatus: 429 } });
      expect(error.message).toContain("Quota exceeded");
      expect(error.message).not.toContain(mock.issuedTokens[0]!.slice(10));
    }
  });

  it("Anthropic's own error body passes as Anthropic's (400 invalid_request)", async () => {
    const { adapter, target } = await setup({ answer: () => ({ kind: "error", status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "messages: too long" } } }) });
    expect(await rejectionOf(messages(adapter, { max_tokens: 5, messages: [] }, target, callContext()))).toMatchObject({ code: "invalid_request", message: "messages: too long" });
  });

  it("another project's model is Google's 404, mapped to model_not_found", async () => {
    const { adapter, target } = await setup({ settings: { project: "other-project", location: "us-east5" } });
    const error = await rejectionOf(messages(adapter, { max_tokens: 5, messages: [{ role: "user", content: "Hi" }] }, target, callContext()));
    expect(error).toMatchObject({ code: "model_not_found", retryable: true });
  });

  it("a connection without a project or location fails naming the setting; other vendors are not served", async () => {
    const { adapter, target } = await setup({ settings: { location: "us-east5" } });
    expect(await rejectionOf(messages(adapter, { max_tokens: 5, messages: [] }, target, callContext()))).toMatchObject({ code: "upstream_error", message: expect.stringContaining("settings.project") });
    const { adapter: other, target: openAiTarget } = await setup({ model: "openai/gpt-4o" });
    expect(await rejectionOf(chatCompletions(other, { messages: [{ role: "user", content: "Hi" }] }, openAiTarget, callContext()))).toMatchObject({ code: "unsupported_feature", retryable: true });
  });
});
