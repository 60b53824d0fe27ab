import { checkDecisionResponse } from "@gateway/decision-schema";
import { describe, expect, it } from "vitest";
import { callContext, collect } from "../../../test/fake-upstream.js";
import { createProviderAdapter } from "../provider-registry.js";
import type { DecisionRequest } from "../../decision/decision-contract.js";
import { createHttpTransport } from "../../http-transport.js";
import type { ProviderTarget, AdapterConnection } from "../../provider-adapter.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { chatCompletions, countTokens, decide, messages } from "../../../test/adapter-calls.js";

const connection: AdapterConnection = { id: "demo", name: "demo", kind: "demo", baseUrl: null, credential: null, headers: {} };
const target: ProviderTarget = { connection, upstreamModel: "demo/echo", qualifiedModel: "demo/demo/echo" };
const adapter = createProviderAdapter(connection, { transport: createHttpTransport() });

const request = (state: unknown): DecisionRequest =>
  ({
    model: "demo/demo/echo",
    state,
    questions: {
      spam: { type: "noul", instructions: "Is it spam?" },
      topic: { type: "choice", instructions: "Topic?", criteria: { billing: null, shipping: null, other: null } },
      stars: { type: "score", instructions: "Stars?", criteria: ["1", "2", "3", "4", "5"] },
      rubric: { type: "score", instructions: "Rubric?", criteria: { "0.5": "low", "9": "high" } },
    },
  }) as DecisionRequest;

describe("demo adapter", () => {
  it("answers questions and choices named like Object.prototype members under their own keys", async () => {
    // JSON.parse makes `__proto__` an own key, as in a request body.
    const questions = JSON.parse(
      '{"__proto__":{"type":"choice","instructions":"i","criteria":{"__proto__":"a","constructor":"b"}},"valueOf":{"type":"noul","instructions":"i"}}',
    );
    const protoRequest = { model: "demo/demo/echo", state: "s", questions } as DecisionRequest;
    const result = await decide(adapter, protoRequest, target, callContext());
    expect(Object.keys(result.response.answers)).toEqual(["__proto__", "valueOf"]);
    const answer = Object.getOwnPropertyDescriptor(result.response.answers, "__proto__")?.value as { probabilities: object };
    expect(Object.keys(answer.probabilities)).toEqual(["__proto__", "constructor"]);
    expect(() => checkDecisionResponse(protoRequest, result.response)).not.toThrow();
  });

  it("answers decisions deterministically from the input, with valid, labelled answers", async () => {
    const first = await decide(adapter, request("Buy cheap watches"), target, callContext());
    const again = await decide(adapter, request("Buy cheap watches"), target, callContext());
    const other = await decide(adapter, request("Where is my parcel?"), target, callContext());
    expect(again.response).toEqual(first.response);
    expect(other.response.answers).not.toEqual(first.response.answers);
    expect(() => checkDecisionResponse(request("x"), first.response)).not.toThrow();
    expect(first.headers).toEqual({ "x-gateway-demo": "true" });
    expect(first.response).toMatchObject({ demo: true, model: "demo/demo/echo" });
    expect(String(first.response.notice)).toContain("demo");
    expect(first.response.answers.topic).toMatchObject({ type: "choice", probability_source: "demo" });
    expect(first.usage.inputTokens).toBeGreaterThan(0);
  });

  it("answers chat completions as JSON and as a stream with usage, labelled as demo", async () => {
    const body = { model: "x", messages: [{ role: "user", content: "Hello" }] };
    const json = await chatCompletions(adapter, body, target, callContext());
    const jsonAgain = await chatCompletions(adapter, body, target, callContext());
    expect(json).toEqual(jsonAgain);
    if (json.kind !== "json") throw new Error("expected JSON");
    const completion = json.body as { choices: { message: { content: string } }[]; usage: { prompt_tokens: number } };
    expect(completion.choices[0]!.message.content).toContain("[demo]");
    expect(json.headers).toEqual({ "x-gateway-demo": "true" });
    expect(completion.usage.prompt_tokens).toBe(json.usage.inputTokens);

    const stream = await chatCompletions(adapter, { ...body, stream: true, stream_options: { include_usage: true } }, target, callContext());
    if (stream.kind !== "stream") throw new Error("expected a stream");
    const events = await collect(renderStreamResult(stream, { includeUsage: true }).events);
    expect(events.at(-1)).toEqual({ data: "[DONE]" });
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(text).toBe(completion.choices[0]!.message.content);
    expect(chunks.at(-1).usage.completion_tokens).toBe(json.usage.outputTokens);
    expect(renderStreamResult(stream).usage()).toEqual(json.usage);
  });

  it("answers messages (JSON and stream) and counts tokens", async () => {
    const body = { model: "x", max_tokens: 10, messages: [{ role: "user", content: "Hi" }] };
    const json = await messages(adapter, body, target, callContext());
    if (json.kind !== "json") throw new Error("expected JSON");
    const message = json.body as { content: { text: string }[] };
    expect(message.content[0]!.text).toContain("[demo]");
    const stream = await messages(adapter, { ...body, stream: true }, target, callContext());
    if (stream.kind !== "stream") throw new Error("expected a stream");
    const events = await collect(renderStreamResult(stream).events);
    expect(events.map((event) => event.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    for (const event of events) expect(JSON.parse(event.data).type).toBe(event.event);
    expect(renderStreamResult(stream).usage()).toEqual(json.usage);
    const count = await countTokens(adapter, { model: "x", messages: body.messages }, target, callContext());
    expect(count).toEqual({ inputTokens: json.usage.inputTokens, local: true });
  });

  it("streams the same shapes the translators produce (role chunk, usage: null, usage chunk; cumulative message_delta usage)", async () => {
    const chat = await chatCompletions(adapter, 
      { model: "x", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "Hello" }] },
      target,
      callContext(),
    );
    if (chat.kind !== "stream") throw new Error("expected a stream");
    const chunks = (await collect(renderStreamResult(chat, { includeUsage: true }).events)).slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "", refusal: null });
    for (const chunk of chunks.slice(0, -1)) expect(chunk.usage).toBeNull();
    const usage = chunks.at(-1).usage;
    expect(usage).toEqual({
      prompt_tokens: renderStreamResult(chat).usage().inputTokens,
      completion_tokens: renderStreamResult(chat).usage().outputTokens,
      total_tokens: renderStreamResult(chat).usage().inputTokens + renderStreamResult(chat).usage().outputTokens,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });

    const messagesResult = await messages(adapter, { model: "x", max_tokens: 5, stream: true, messages: [{ role: "user", content: "Hi" }] }, target, callContext());
    if (messagesResult.kind !== "stream") throw new Error("expected a stream");
    const events = (await collect(renderStreamResult(messagesResult).events)).map((event) => JSON.parse(event.data));
    expect(events.find((event) => event.type === "message_delta").usage).toEqual({
      input_tokens: renderStreamResult(messagesResult).usage().inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: renderStreamResult(messagesResult).usage().outputTokens,
    });
  });

  it("stops when the caller has gone", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(chatCompletions(adapter, { messages: [] }, target, callContext({ signal: controller.signal }))).rejects.toMatchObject({
      code: "client_cancelled",
    });
  });
});
