import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bedrockConnection, bedrockTarget, bedrockTestKeys } from "../../../test/bedrock-connection.js";
import { chatCompletions, messages, responses } from "../../../test/adapter-calls.js";
import { callContext, collect, rejectionOf } from "../../../test/fake-upstream.js";
import { type BedrockMock, startBedrockMock } from "../../../test/mocks/bedrock-mock.js";
import { bedrockMockText, converseEvents } from "../../../test/mocks/bedrock-mock-answers.js";
import { renderStreamResult } from "../../../test/render-stream-result.js";
import { createHttpTransport, type HttpTransport } from "../../http-transport.js";
import type { ProviderResult } from "../../provider-adapter.js";
import { createProviderAdapter } from "../provider-registry.js";

let mock: BedrockMock;
let transport: HttpTransport;

beforeAll(async () => {
  mock = await startBedrockMock({ keys: bedrockTestKeys, region: "eu-central-1" });
  transport = createHttpTransport();
});
afterAll(async () => {
  await transport?.close();
  await mock?.close();
});
beforeEach(() => mock.use(null));

function setup() {
  const connection = bedrockConnection(mock);
  return { adapter: createProviderAdapter(connection, { transport }), target: bedrockTarget(connection), connection };
}

const weatherTool = { type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };

function json(result: ProviderResult): any {
  if (result.kind !== "json") throw new Error("expected JSON");
  return result.body;
}

describe("the Bedrock chat model (Converse)", () => {
  it("translates a chat completions request to a signed Converse call and the answer back, cache usage included", async () => {
    const { adapter, target } = setup();
    const result = await chatCompletions(
      adapter,
      { model: "m", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }], temperature: 0.2, top_p: 0.9, stop: "END", max_tokens: 64, user: "u-1" },
      target,
      callContext(),
    );
    const sent = mock.requests.at(-1)!;
    expect(sent.modelId).toBe("anthropic.claude-sonnet-4-20250514-v1:0");
    expect(sent.operation).toBe("converse");
    expect(sent.body).toEqual({
      system: [{ text: "Be brief." }],
      messages: [{ role: "user", content: [{ text: "Hi" }] }],
      inferenceConfig: { maxTokens: 64, temperature: 0.2, topP: 0.9, stopSequences: ["END"] },
      requestMetadata: { user: "u-1" },
    });
    expect(json(result)).toMatchObject({
      object: "chat.completion",
      model: "bedrock-test/anthropic/claude-sonnet-4-20250514-v1:0",
      choices: [{ message: { role: "assistant", content: bedrockMockText }, finish_reason: "stop" }],
      usage: { prompt_tokens: 17, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 3, cache_write_tokens: 2 } },
    });
    if (result.kind === "json") expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 7, cacheReadTokens: 3, cacheWriteTokens: 2, reasoningTokens: 0 });
  });

  it("sends tools and tool results as toolSpec / toolUse / toolResult blocks and answers tool calls", async () => {
    const { adapter, target } = setup();
    const first = json(await chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weatherTool], tool_choice: "required" }, target, callContext()));
    expect(mock.requests.at(-1)!.body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: "get_weather", description: "Weather of a city", inputSchema: { json: weatherTool.function.parameters } } }],
      toolChoice: { any: {} },
    });
    const call = first.choices[0].message.tool_calls[0];
    expect(first.choices[0].finish_reason).toBe("tool_calls");
    expect(call).toMatchObject({ type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } });

    const second = json(
      await chatCompletions(
        adapter,
        { model: "m", tools: [weatherTool], messages: [{ role: "user", content: "Weather in Paris?" }, first.choices[0].message, { role: "tool", tool_call_id: call.id, content: "22 C, sunny" }] },
        target,
        callContext(),
      ),
    );
    expect(mock.requests.at(-1)!.body.messages).toEqual([
      { role: "user", content: [{ text: "Weather in Paris?" }] },
      { role: "assistant", content: [{ toolUse: { toolUseId: call.id, name: "get_weather", input: { city: "Paris" } } }] },
      { role: "user", content: [{ toolResult: { toolUseId: call.id, content: [{ text: "22 C, sunny" }] } }] },
    ]);
    expect(second.choices[0].message.content).toBe("It is sunny in Paris.");
  });

  it("answers a messages caller (translated) with an Anthropic message, images as bytes", async () => {
    const { adapter, target } = setup();
    const body = {
      model: "m",
      max_tokens: 100,
      system: "Describe.",
      messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }] }],
    };
    const answer = json(await messages(adapter, body, target, callContext()));
    expect(mock.requests.at(-1)!.body.messages[0].content[1]).toEqual({ image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } });
    expect(answer).toMatchObject({ type: "message", role: "assistant", content: [{ type: "text", text: bedrockMockText }], stop_reason: "end_turn", usage: { input_tokens: 12, cache_read_input_tokens: 3 } });
  });

  it("answers a Responses caller (translated) with a response object", async () => {
    const { adapter, target } = setup();
    const answer = json(await responses(adapter, { model: "m", input: "Hi", instructions: "Be brief." }, target, callContext()));
    expect(mock.requests.at(-1)!.body.system).toEqual([{ text: "Be brief." }]);
    expect(answer).toMatchObject({ object: "response", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: bedrockMockText }] }] });
  });

  it("turns response_format json_schema into a forced tool whose input is the answer's text", async () => {
    const { adapter, target } = setup();
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const answer = json(await chatCompletions(adapter, { model: "m", messages: [{ role: "user", content: "Capital of France?" }], response_format: { type: "json_schema", json_schema: { name: "capital", schema } } }, target, callContext()));
    expect(mock.requests.at(-1)!.body.toolConfig).toMatchObject({ tools: [{ toolSpec: { name: "capital", inputSchema: { json: schema } } }], toolChoice: { tool: { name: "capital" } } });
    expect(answer.choices[0]).toMatchObject({ message: { content: '{"city":"Paris"}' }, finish_reason: "stop" });
    expect(answer.choices[0].message.tool_calls).toBeUndefined();
  });

  it("refuses what Converse cannot represent before any call, naming the field", async () => {
    const { adapter, target } = setup();
    const before = mock.requests.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.test/cat.png" } }] }] }, "messages[0].content[0].image_url.url"],
      [{ messages: [{ role: "user", content: "Hi" }], tools: [{ ...weatherTool, function: { ...weatherTool.function, strict: true } }] }, "tools[0].function.strict"],
      [{ messages: [{ role: "user", content: "Hi" }], seed: 3 }, "seed"],
      [{ messages: [{ role: "user", content: "Hi" }], logprobs: true }, "logprobs"],
      [{ messages: [{ role: "user", content: "Hi" }], tools: [weatherTool], parallel_tool_calls: false }, "parallel_tool_calls"],
    ];
    for (const [body, param] of cases) {
      const error = await rejectionOf(chatCompletions(adapter, { model: "m", ...body }, target, callContext()));
      expect(error).toMatchObject({ code: "unsupported_feature", param, retryable: true });
    }
    expect(mock.requests.length).toBe(before);
  });
});

describe("the Bedrock chat model (ConverseStream)", () => {
  async function streamed(body: Record<string, unknown>, to: "openai-chat" | "anthropic-messages") {
    const { adapter, target } = setup();
    const result = to === "openai-chat" ? await chatCompletions(adapter, { ...body, stream: true }, target, callContext()) : await messages(adapter, { max_tokens: 50, ...body, stream: true }, target, callContext());
    const rendered = renderStreamResult(result, { to, includeUsage: true });
    const events = await collect(rendered.events);
    return { events, usage: rendered.usage(), data: events.filter((event) => event.data !== "[DONE]").map((event) => JSON.parse(event.data)) };
  }

  it("decodes the binary event stream into chat chunks with usage", async () => {
    const { events, data, usage } = await streamed({ model: "m", messages: [{ role: "user", content: "Hi" }] }, "openai-chat");
    expect(mock.requests.at(-1)!.operation).toBe("converse-stream");
    expect(data.map((chunk) => chunk.choices?.[0]?.delta?.content ?? "").join("")).toBe(bedrockMockText);
    expect(data.find((chunk) => chunk.choices?.[0]?.finish_reason)?.choices[0].finish_reason).toBe("stop");
    expect(events.at(-1)?.data).toBe("[DONE]");
    expect(usage).toEqual({ inputTokens: 12, outputTokens: 7, cacheReadTokens: 3, cacheWriteTokens: 2, reasoningTokens: 0 });
  });

  it("streams parallel tool calls to a messages caller as tool_use blocks", async () => {
    mock.use(() => ({
      events: converseEvents(
        [
          { toolUse: { toolUseId: "tooluse_a", name: "get_weather", input: { city: "Paris" } } },
          { toolUse: { toolUseId: "tooluse_b", name: "get_weather", input: { city: "Oslo" } } },
        ],
        "tool_use",
      ),
    }));
    const { data } = await streamed({ model: "m", messages: [{ role: "user", content: "Weather in Paris and Oslo?" }], tools: [{ name: "get_weather", input_schema: weatherTool.function.parameters }] }, "anthropic-messages");
    const starts = data.filter((event) => event.type === "content_block_start").map((event) => event.content_block);
    expect(starts).toMatchObject([{ type: "tool_use", id: "tooluse_a", name: "get_weather" }, { type: "tool_use", id: "tooluse_b", name: "get_weather" }]);
    const inputs = new Map<number, string>();
    for (const event of data) if (event.delta?.type === "input_json_delta") inputs.set(event.index, (inputs.get(event.index) ?? "") + event.delta.partial_json);
    expect([...inputs.values()].map((text) => JSON.parse(text))).toEqual([{ city: "Paris" }, { city: "Oslo" }]);
    expect(data.find((event) => event.type === "message_delta")?.delta.stop_reason).toBe("tool_use");
    expect(data.at(-1)?.type).toBe("message_stop");
  });

  it("turns an in-stream throttlingException into the caller's protocol error event", async () => {
    mock.use(() => ({ events: [...converseEvents([{ text: "Partial answer" }], "end_turn").slice(0, 3), { exception: "throttlingException", message: "Too many tokens, please wait before trying again." }] }));
    const chat = await streamed({ model: "m", messages: [{ role: "user", content: "Hi" }] }, "openai-chat");
    expect(chat.data.at(-1)).toMatchObject({ error: { code: "upstream_rate_limited", message: "Too many tokens, please wait before trying again." } });
    const anthropic = await streamed({ model: "m", messages: [{ role: "user", content: "Hi" }] }, "anthropic-messages");
    expect(anthropic.events.at(-1)?.event).toBe("error");
    expect(anthropic.data.at(-1)).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  });

  it("turns a modelStreamErrorException, a cut stream and a corrupt frame into error events", async () => {
    mock.use(() => ({ events: [{ event: "messageStart", payload: { role: "assistant" } }, { exception: "modelStreamErrorException", message: "The model failed." }] }));
    expect((await streamed({ model: "m", messages: [{ role: "user", content: "Hi" }] }, "openai-chat")).data.at(-1)).toMatchObject({ error: { code: "upstream_error" } });

    mock.use(() => ({ events: converseEvents([{ text: "A longer answer that is cut" }], "end_turn"), cutAtByte: 300 }));
    const cut = await streamed({ model: "m", messages: [{ role: "user", content: "Hi" }] }, "openai-chat");
    expect(cut.data.at(-1)).toMatchObject({ error: { code: "upstream_error" } });
    expect(cut.events.at(-1)?.data).not.toBe("[DONE]");

    mock.use(() => ({ events: converseEvents([{ text: "Hello" }], "end_turn"), corruptMessage: 1 }));
    const corrupt = await streamed({ model: "m", messages: [{ role: "user", content: "Hi" }] }, "openai-chat");
    expect(corrupt.data.at(-1)).toMatchObject({ error: { code: "upstream_error", message: expect.stringContaining("corrupt") } });
  });
});
