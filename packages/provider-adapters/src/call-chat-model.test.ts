import { describe, expect, it } from "vitest";
import { callContext, collect } from "../test/fake-upstream.js";
import { renderStreamResult } from "../test/render-stream-result.js";
import { callChatModel } from "./call-chat-model.js";
import type { ChatCompletion, ChatRequest } from "./chat-request.js";
import type { AdapterConnection, ChatModel, ChatModelAnswer, ProviderTarget } from "./provider-adapter.js";
import type { StreamFrame } from "./stream/stream-part.js";

// A provider whose upstream speaks no caller format answers the neutral request (`generate`):
// one translation on its side serves chat completions, messages and Responses callers.

const connection: AdapterConnection = { id: "c1", name: "neutral", kind: "demo", baseUrl: null, credential: null, headers: {} };
const target: ProviderTarget = { connection, upstreamModel: "vendor/model-1", qualifiedModel: "neutral/vendor/model-1" };
const usage = { inputTokens: 7, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

function completion(text: string): ChatCompletion {
  return {
    id: "cmpl_1",
    object: "chat.completion",
    created: 1,
    model: "vendor/model-1",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
  };
}

async function* frames(): AsyncGenerator<StreamFrame> {
  const frame = (...parts: StreamFrame["parts"]): StreamFrame => ({ source: null, payload: null, parts });
  yield frame({ type: "start", id: "msg_1", model: "vendor/model-1" });
  yield frame({ type: "text-delta", choice: 0, text: "Hel" });
  yield frame({ type: "text-delta", choice: 0, text: "lo" });
  yield frame({ type: "text-end", choice: 0 }, { type: "finish", choice: 0, reason: "stop", raw: "end_turn" }, { type: "usage", usage });
  yield frame({ type: "end" });
}

/** A neutral model that records what it was asked and answers "Hello". */
function neutralModel(): { model: ChatModel; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    passthrough: [],
    async generate(request): Promise<ChatModelAnswer> {
      requests.push(request);
      if (request.stream === true) return { kind: "stream", status: 200, format: null, frames: frames() };
      return { kind: "json", status: 200, body: completion("Hello"), usage };
    },
  };
  return { model, requests };
}

describe("callChatModel with a neutral model", () => {
  it("hands a chat completions request over as the neutral request, naming the upstream model, and answers as a chat completion", async () => {
    const { model, requests } = neutralModel();
    const body = { model: "neutral/vendor/model-1", messages: [{ role: "user", content: "Hi" }], temperature: 0.2 };
    const result = await callChatModel(model, "openai-chat", body, target, callContext());
    expect(requests).toEqual([{ model: "vendor/model-1", messages: [{ role: "user", content: "Hi" }], temperature: 0.2 }]);
    expect(body.model).toBe("neutral/vendor/model-1");
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.body).toMatchObject({ object: "chat.completion", model: "neutral/vendor/model-1", choices: [{ message: { content: "Hello" } }] });
    expect(result.usage).toEqual(usage);
  });

  it("translates a messages request to the neutral request and the answer back to an Anthropic message", async () => {
    const { model, requests } = neutralModel();
    const body = { model: "m", max_tokens: 50, system: "Be brief.", messages: [{ role: "user", content: "Hi" }] };
    const result = await callChatModel(model, "anthropic-messages", body, target, callContext());
    expect(requests[0]).toMatchObject({
      model: "vendor/model-1",
      max_completion_tokens: 50,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.body).toMatchObject({ type: "message", role: "assistant", model: "neutral/vendor/model-1", content: [{ type: "text", text: "Hello" }], stop_reason: "end_turn" });
  });

  it("translates a Responses request and answers with a response object", async () => {
    const { model, requests } = neutralModel();
    const result = await callChatModel(model, "openai-responses", { model: "m", input: "Hi", instructions: "Be brief." }, target, callContext());
    expect(requests[0]?.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
    if (result.kind !== "json") throw new Error("expected JSON");
    expect(result.body).toMatchObject({ object: "response", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: "Hello" }] }] });
  });

  it("streams parts that each caller format's encoder renders", async () => {
    for (const [format, body] of [
      ["anthropic-messages", { model: "m", max_tokens: 50, stream: true, messages: [{ role: "user", content: "Hi" }] }],
      ["openai-chat", { model: "m", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "Hi" }] }],
    ] as const) {
      const { model } = neutralModel();
      const result = await callChatModel(model, format, body, target, callContext());
      if (result.kind !== "stream") throw new Error("expected a stream");
      expect(result.format).toBeNull();
      const events = await collect(renderStreamResult(result, { to: format }).events);
      const text = events
        .map((event) => JSON.parse(event.data === "[DONE]" ? "{}" : event.data) as { delta?: { text?: string }; choices?: { delta?: { content?: string } }[] })
        .map((data) => data.delta?.text ?? data.choices?.[0]?.delta?.content ?? "")
        .join("");
      expect(text).toBe("Hello");
      if (format === "anthropic-messages") expect(events.map((event) => event.event).at(-1)).toBe("message_stop");
      else expect(events.at(-1)?.data).toBe("[DONE]");
    }
  });
});
