import { afterEach, describe, expect, it } from "vitest";
import { chatCompletions, countTokens, decide, embeddings, messages, responses } from "../../../test/adapter-calls.js";
import { callContext, collect, rejectionOf } from "../../../test/fake-upstream.js";
import { type GeminiMock, googleError, startGeminiMock } from "../../../test/mocks/gemini-mock.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { type HttpTransport, createHttpTransport } from "../../http-transport.js";
import type { AdapterConnection, ProviderTarget } from "../../provider-adapter.js";
import { createProviderAdapter } from "../provider-registry.js";
import type { DecisionRequest } from "../../decision/decision-contract.js";

// Embedding usage is counted locally: the first count builds the tokenizer's rank tables (about
// 1 s on an idle machine, several while other suites run beside it).
const tokenizerLoadTimeoutMs = 60_000;

let mock: GeminiMock | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await mock?.close();
  transport = undefined;
  mock = undefined;
});

const weatherTool = { type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false, $schema: "http://json-schema.org/draft-07/schema#" } } };

async function setup(extra: Partial<AdapterConnection> = {}, model = "gemini-2.5-flash") {
  mock = await startGeminiMock();
  transport = createHttpTransport();
  const connection: AdapterConnection = { id: "con_gemini", name: "gemini-test", kind: "gemini", baseUrl: mock.url, credential: mock.apiKey, headers: {}, ...extra };
  const target: ProviderTarget = { connection, upstreamModel: model, qualifiedModel: `gemini-test/google/${model}` };
  return { adapter: createProviderAdapter(connection, { transport }), target, mock };
}

type Result = Awaited<ReturnType<typeof chatCompletions>>;

function jsonResult(result: Result): Extract<Result, { kind: "json" }> {
  if (result.kind !== "json") throw new Error("expected JSON");
  return result;
}

function json(result: Result): any {
  return jsonResult(result).body;
}

describe("gemini adapter: chat", () => {
  it("translates a chat completions request into generateContent and the answer back, with the key in x-goog-api-key only", async () => {
    const { adapter, target, mock } = await setup();
    const result = await chatCompletions(adapter, {
      model: "gemini-test/google/gemini-2.5-flash",
      messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Say hello" }],
      max_completion_tokens: 50, temperature: 0.3, top_p: 0.9, stop: ["END"], seed: 7, reasoning_effort: "low",
    }, target, callContext());
    const sent = mock.requests[0]!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe(mock.apiKey);
    expect(sent.query.get("key")).toBeNull();
    expect(sent.body).toEqual({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [{ role: "user", parts: [{ text: "Say hello" }] }],
      generationConfig: { maxOutputTokens: 50, temperature: 0.3, topP: 0.9, stopSequences: ["END"], seed: 7, thinkingConfig: { thinkingBudget: 1024 } },
    });
    const body = json(result);
    expect(body).toMatchObject({ object: "chat.completion", model: "gemini-test/google/gemini-2.5-flash", choices: [{ message: { role: "assistant", content: "Hello from Gemini, how can I help?" }, finish_reason: "stop" }] });
    // Thinking tokens are output tokens, counted as reasoning.
    expect(jsonResult(result).usage.reasoningTokens).toBe(12);
    expect(jsonResult(result).usage.outputTokens).toBe(body.usage.completion_tokens);
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(12);
  });

  it("calls tools: declarations with the schema reduced, calls as tool_calls with ids, results matched back by name", async () => {
    const { adapter, target, mock } = await setup();
    const first = json(await chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "What is the weather in Paris and Rome?" }], tools: [weatherTool], tool_choice: "auto" }, target, callContext()));
    expect(mock.requests[0]!.body.tools).toEqual([{ functionDeclarations: [{ name: "get_weather", description: "Weather of a city", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false } }] }]);
    expect(mock.requests[0]!.body.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
    const calls = first.choices[0].message.tool_calls;
    expect(first.choices[0].finish_reason).toBe("tool_calls");
    expect(calls.map((call: any) => JSON.parse(call.function.arguments))).toEqual([{ city: "Paris" }, { city: "Rome" }]);
    expect(new Set(calls.map((call: any) => call.id)).size).toBe(2);

    const second = json(await chatCompletions(adapter, {
      model: "m", tools: [weatherTool], tool_choice: { type: "function", function: { name: "get_weather" } },
      messages: [
        { role: "user", content: "What is the weather in Paris and Rome?" },
        first.choices[0].message,
        { role: "tool", tool_call_id: calls[0].id, content: "Sunny" },
        { role: "tool", tool_call_id: calls[1].id, content: "Rain" },
      ],
    }, target, callContext()));
    const sent = mock.requests[1]!.body;
    expect(sent.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } });
    expect(sent.contents.map((content: any) => content.role)).toEqual(["user", "model", "user"]);
    expect(sent.contents[1].parts).toEqual([{ functionCall: { name: "get_weather", args: { city: "Paris" } } }, { functionCall: { name: "get_weather", args: { city: "Rome" } } }]);
    expect(sent.contents[2].parts).toEqual([{ functionResponse: { name: "get_weather", response: { result: "Sunny" } } }, { functionResponse: { name: "get_weather", response: { result: "Rain" } } }]);
    expect(second.choices[0].message.content).toBe("get_weather says: Sunny; get_weather says: Rain");
  });

  it("streams text, parallel tool calls, usage and the finish for chat completions and messages callers", async () => {
    const { adapter, target, mock } = await setup();
    const result = await chatCompletions(adapter, { model: "m", stream: true, messages: [{ role: "user", content: "Say hello" }] }, target, callContext());
    expect(mock.requests[0]!.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    expect(mock.requests[0]!.query.get("alt")).toBe("sse");
    const rendered = renderStreamResult(result, { to: "openai-chat", includeUsage: true });
    const events = await collect(rendered.events);
    const chunks = events.filter((event) => event.data !== "[DONE]").map((event) => JSON.parse(event.data));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Hello from Gemini, how can I help?");
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("stop");
    expect(events.at(-1)?.data).toBe("[DONE]");
    expect(rendered.usage().inputTokens).toBeGreaterThan(0);

    const toolStream = await messages(adapter, { model: "m", max_tokens: 100, stream: true, tools: [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }], messages: [{ role: "user", content: "What is the weather in Paris and Rome?" }] }, target, callContext());
    const toolEvents = (await collect(renderStreamResult(toolStream, { to: "anthropic-messages" }).events)).map((event) => ({ event: event.event, data: JSON.parse(event.data) }));
    const starts = toolEvents.filter((event) => event.event === "content_block_start").map((event) => event.data.content_block);
    expect(starts.map((block) => [block.type, block.name])).toEqual([["tool_use", "get_weather"], ["tool_use", "get_weather"]]);
    const inputs = toolEvents.filter((event) => event.data.delta?.type === "input_json_delta").map((event) => JSON.parse(event.data.delta.partial_json));
    expect(inputs).toEqual([{ city: "Paris" }, { city: "Rome" }]);
    expect(toolEvents.find((event) => event.event === "message_delta")?.data.delta.stop_reason).toBe("tool_use");
    expect(toolEvents.at(-1)?.event).toBe("message_stop");
  });

  it("answers messages and Responses callers in their formats", async () => {
    const { adapter, target } = await setup();
    const message = json(await messages(adapter, { model: "m", max_tokens: 64, system: "Be brief.", messages: [{ role: "user", content: "Say hello" }] }, target, callContext()));
    expect(message).toMatchObject({ type: "message", role: "assistant", content: [{ type: "text", text: "Hello from Gemini, how can I help?" }], stop_reason: "end_turn" });
    const response = json(await responses(adapter, { model: "m", input: "Say hello", instructions: "Be brief." }, target, callContext()));
    expect(response).toMatchObject({ object: "response", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: "Hello from Gemini, how can I help?" }] }] });
  });

  it("normalizes usageMetadata: cached tokens out of the input, thoughts into the output", async () => {
    const { adapter, target, mock } = await setup();
    mock.reply({ json: { candidates: [{ content: { role: "model", parts: [{ text: "Hi" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 60, candidatesTokenCount: 5, thoughtsTokenCount: 20, totalTokenCount: 125 } } });
    const result = await chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    expect(jsonResult(result).usage).toEqual({ inputTokens: 40, cacheReadTokens: 60, cacheWriteTokens: 0, outputTokens: 25, reasoningTokens: 20 });
    expect(json(result).usage).toMatchObject({ prompt_tokens: 100, completion_tokens: 25, total_tokens: 125, prompt_tokens_details: { cached_tokens: 60 } });
  });

  it("turns a blocked prompt into a refusal: content_filter for chat completions, stop_reason refusal for messages, in JSON and streams", async () => {
    const { adapter, target } = await setup();
    const chat = json(await chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "BLOCKME" }] }, target, callContext()));
    expect(chat.choices[0]).toMatchObject({ finish_reason: "content_filter", message: { content: null, refusal: "The provider blocked this content (SAFETY)." } });
    const message = json(await messages(adapter, { model: "m", max_tokens: 10, messages: [{ role: "user", content: "BLOCKME" }] }, target, callContext()));
    expect(message.stop_reason).toBe("refusal");
    const stream = await messages(adapter, { model: "m", max_tokens: 10, stream: true, messages: [{ role: "user", content: "BLOCKME" }] }, target, callContext());
    const events = await collect(renderStreamResult(stream, { to: "anthropic-messages" }).events);
    expect(events.map((event) => JSON.parse(event.data)).find((data) => data.type === "message_delta")?.delta.stop_reason).toBe("refusal");
  });

  it("maps a SAFETY finish mid-stream to content_filter, keeping the text already sent", async () => {
    const { adapter, target, mock } = await setup();
    mock.reply({ stream: [
      { candidates: [{ content: { role: "model", parts: [{ text: "Part one" }] }, index: 0 }] },
      { candidates: [{ content: { role: "model", parts: [] }, finishReason: "SAFETY", index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 } },
    ] });
    const result = await chatCompletions(adapter, { model: "m", stream: true, messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    const chunks = (await collect(renderStreamResult(result, { to: "openai-chat" }).events)).filter((event) => event.data !== "[DONE]").map((event) => JSON.parse(event.data));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Part one");
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("content_filter");
  });

  it("ends a stream with the caller's error event on an in-stream Google error and on a cut stream, never quoting the key", async () => {
    const { adapter, target, mock } = await setup();
    mock.reply({ stream: [{ candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] }, index: 0 }] }, googleError(503, "UNAVAILABLE", `The model is overloaded (key ${mock.apiKey}).`)] });
    const failed = await chatCompletions(adapter, { model: "m", stream: true, messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    const frames = renderStreamResult(failed, { to: "anthropic-messages" });
    const events = await collect(frames.events);
    const error = JSON.parse(events.at(-1)!.data);
    expect(events.at(-1)?.event).toBe("error");
    expect(error.error.type).toBe("overloaded_error");
    expect(JSON.stringify(events)).not.toContain(mock.apiKey);

    mock.reply({ stream: [{ candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] }, index: 0 }] }], cut: true });
    const cut = await chatCompletions(adapter, { model: "m", stream: true, messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    const cutEvents = await collect(renderStreamResult(cut, { to: "openai-chat" }).events);
    expect(JSON.parse(cutEvents.at(-1)!.data).error).toBeDefined();
  });

  it("refuses what Gemini cannot represent, naming the field, before any call", async () => {
    const { adapter, target, mock } = await setup();
    const parallel = await rejectionOf(chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "Hi" }], tools: [weatherTool], parallel_tool_calls: false }, target, callContext()));
    expect(parallel).toMatchObject({ code: "unsupported_feature", param: "parallel_tool_calls" });
    const image = await rejectionOf(chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/cat.png" } }] }] }, target, callContext()));
    expect(image).toMatchObject({ code: "unsupported_feature", param: "messages[0].content[0].image_url.url" });
    const strict = await rejectionOf(chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "Hi" }], response_format: { type: "json_schema", json_schema: { name: "x", strict: true, schema: { type: "object", properties: { code: { type: "string", pattern: "^[A-Z]+$" } } } } } }, target, callContext()));
    expect(strict).toMatchObject({ code: "unsupported_feature", param: "response_format.json_schema.schema.properties.code.pattern" });
    expect(mock.requests).toHaveLength(0);
  });

  it("sends images as inlineData and response_format as a JSON schema", async () => {
    const { adapter, target, mock } = await setup();
    await chatCompletions(adapter, {
      model: "m",
      messages: [{ role: "user", content: [{ type: "text", text: "What is it?" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] }],
      response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object", properties: { thing: { type: "string", minLength: 1 } }, required: ["thing"] } } },
    }, target, callContext());
    const sent = mock.requests[0]!.body;
    expect(sent.contents[0].parts).toEqual([{ text: "What is it?" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }]);
    expect(sent.generationConfig).toEqual({ responseMimeType: "application/json", responseJsonSchema: { type: "object", properties: { thing: { type: "string" } }, required: ["thing"] } });
  });
});

describe("gemini adapter: errors", () => {
  it("maps Google's errors: RESOURCE_EXHAUSTED with its retry delay, INVALID_ARGUMENT, UNAVAILABLE, a refused key (never quoted)", async () => {
    const { adapter, target, mock } = await setup();
    const body = { model: "m", messages: [{ role: "user", content: "Hi" }] };
    mock.reply(
      { status: 429, json: googleError(429, "RESOURCE_EXHAUSTED", "Quota exceeded.", [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "23s" }]) },
      { status: 400, json: googleError(400, "INVALID_ARGUMENT", "Invalid value at 'generation_config.temperature'.") },
      { status: 503, json: googleError(503, "UNAVAILABLE", "The model is overloaded.") },
      { status: 403, json: googleError(403, "PERMISSION_DENIED", "Permission denied.") },
    );
    expect(await rejectionOf(chatCompletions(adapter, body, target, callContext()))).toMatchObject({ code: "upstream_rate_limited", retryAfter: "23", retryable: true });
    expect(await rejectionOf(chatCompletions(adapter, body, target, callContext()))).toMatchObject({ code: "invalid_request", message: "Invalid value at 'generation_config.temperature'.", retryable: false });
    expect(await rejectionOf(chatCompletions(adapter, body, target, callContext()))).toMatchObject({ code: "service_unavailable", retryable: true });
    expect(await rejectionOf(chatCompletions(adapter, body, target, callContext()))).toMatchObject({ code: "upstream_error", details: { upstreamStatus: 403 } });

    const stranger = await setup({ credential: "AIzaWrongKey0123456789012345678901234" });
    const refused = await rejectionOf(chatCompletions(stranger.adapter, body, stranger.target, callContext()));
    expect(refused).toMatchObject({ code: "upstream_error", retryable: true });
    expect(JSON.stringify({ message: refused.message, details: refused.details })).not.toContain("AIzaWrongKey");
  });

  it("answers an unknown model with model_not_found", async () => {
    const { adapter, target } = await setup({}, "gemini-missing");
    expect(await rejectionOf(chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "Hi" }] }, target, callContext()))).toMatchObject({ code: "model_not_found" });
  });
});

describe("gemini adapter: embeddings, token counts, decisions", () => {
  it("embeds one text with embedContent and several with batchEmbedContents, dimensions and base64 kept", async () => {
    const { adapter, target, mock } = await setup({}, "gemini-embedding-001");
    const one = json(await embeddings(adapter, { model: "m", input: "hello world", dimensions: 4 }, target, callContext()));
    expect(mock.requests[0]!.path).toBe("/v1beta/models/gemini-embedding-001:embedContent");
    expect(mock.requests[0]!.body).toEqual({ content: { parts: [{ text: "hello world" }] }, outputDimensionality: 4 });
    expect(one).toMatchObject({ object: "list", data: [{ object: "embedding", index: 0 }] });
    expect(one.data[0].embedding).toHaveLength(4);
    expect(one.usage.prompt_tokens).toBeGreaterThan(0);

    const several = json(await embeddings(adapter, { model: "m", input: ["a", "b"], encoding_format: "base64" }, target, callContext()));
    expect(mock.requests[1]!.body.requests[0].model).toBe("models/gemini-embedding-001");
    expect(several.data).toHaveLength(2);
    expect(Buffer.from(several.data[1].embedding, "base64").length).toBe(8 * 4);
    expect(await rejectionOf(embeddings(adapter, { model: "m", input: [[1, 2]] }, target, callContext()))).toMatchObject({ code: "unsupported_feature", param: "input" });
  }, tokenizerLoadTimeoutMs);

  it("counts tokens with countTokens, the system prompt and tools included", async () => {
    const { adapter, target, mock } = await setup();
    const count = await countTokens(adapter, { model: "m", system: "Be brief.", messages: [{ role: "user", content: "one two three" }], tools: [{ name: "get_weather", input_schema: { type: "object" } }] }, target, callContext());
    expect(count.local).toBe(false);
    expect(count.inputTokens).toBeGreaterThan(3);
    const sent = mock.requests[0]!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.5-flash:countTokens");
    expect(sent.body.generateContentRequest).toMatchObject({ model: "models/gemini-2.5-flash", systemInstruction: { parts: [{ text: "Be brief." }] }, tools: [{ functionDeclarations: [{ name: "get_weather" }] }] });
  });

  it("decides with measured log-probabilities (responseLogprobs, one token, no thinking)", async () => {
    const { adapter, target, mock } = await setup();
    const request = { model: "gemini-test/google/gemini-2.5-flash", state: { ticket: "charged twice" }, questions: { billing: { type: "noul", instructions: "Is it a billing issue?" }, action: { type: "choice", instructions: "What to do?", criteria: { refund: "Refund", ignore: null } } } } as unknown as DecisionRequest;
    const result = await decide(adapter, request, target, callContext());
    expect(mock.requests[0]!.body.generationConfig).toEqual({ temperature: 0, candidateCount: 1, responseLogprobs: true, logprobs: 20, maxOutputTokens: 1, thinkingConfig: { thinkingBudget: 0 } });
    const billing = result.response.answers.billing as unknown as { noul: number; probability_source: string };
    expect(billing.probability_source).toBe("logprobs");
    expect(billing.noul).toBeCloseTo(0.6, 9);
    const action = result.response.answers.action as unknown as { choice: string; probabilities: Record<string, number> };
    expect(action.choice).toBe("refund");
    expect(action.probabilities.refund).toBeCloseTo(0.6, 9);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it("falls back to stated probabilities when the model rejects logprobs, and uses them when the connection says logprobs: false", async () => {
    const { adapter, target, mock } = await setup();
    mock.reply({ status: 400, json: googleError(400, "INVALID_ARGUMENT", "Logprobs is not supported for the current model.") });
    const request = { model: "x", state: {}, questions: { q: { type: "noul", instructions: "Is it?" } } } as unknown as DecisionRequest;
    const result = await decide(adapter, request, target, callContext());
    expect(mock.requests[1]!.body.generationConfig).toMatchObject({ responseMimeType: "application/json", responseJsonSchema: { type: "object", required: ["true", "false"] } });
    expect((result.response.answers.q as unknown as { noul: number }).noul).toBeCloseTo(0.7, 9);

    const stated = await setup({ logprobs: false });
    await decide(stated.adapter, request, stated.target, callContext());
    expect(stated.mock.requests[0]!.body.generationConfig.responseLogprobs).toBeUndefined();
  });
});
