import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { expectJsonGolden, readFixtureJson } from "../__fixtures__/golden.js";
import { convertChatRequestToAnthropic } from "./convert-chat-request-to-anthropic.js";
import { getJsonResponseToolName } from "./get-json-response-tool-name.js";

const options = { defaultMaxTokens: 4096 };
const userMessage = { role: "user", content: "Hi" };

function convert(body: Record<string, unknown>) {
  return convertChatRequestToAnthropic(body, options);
}

function refusal(body: Record<string, unknown>): GatewayError {
  try {
    convert(body);
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the conversion to be refused");
}

describe("convertChatRequestToAnthropic (golden)", () => {
  it.each([
    "cache-control-system-messages-tools",
    "images",
    "multi-turn-tool-results",
    "tool-choice-function-default-max-tokens",
    "response-format-json-schema",
    "response-format-with-tools-no-parallel",
  ])("%s", (name) => {
    const request = readFixtureJson(`chat-request/${name}.openai.json`);
    expectJsonGolden(`chat-request/${name}.anthropic.json`, convert(request));
  });
});

describe("convertChatRequestToAnthropic", () => {
  it("moves system and developer messages to the top-level system, keeping cache_control", () => {
    const result = convert(readFixtureJson("chat-request/cache-control-system-messages-tools.openai.json"));
    expect(result.system).toEqual([
      { type: "text", text: "You are a helpful travel assistant." },
      { type: "text", text: "Long reference document about every city in Europe...", cache_control: { type: "ephemeral" } },
    ]);
    expect(JSON.stringify(result.messages)).not.toContain('"system"');
    expect((result.tools as Record<string, unknown>[])[0]?.cache_control).toEqual({ type: "ephemeral" });
  });

  it("uses a single string system when there is one plain system message", () => {
    expect(convert({ model: "m", messages: [{ role: "system", content: "Be short." }, userMessage] }).system).toBe("Be short.");
  });

  it("merges consecutive tool results into one user turn", () => {
    const result = convert(readFixtureJson("chat-request/multi-turn-tool-results.openai.json"));
    const messages = result.messages as { role: string; content: { type: string }[] | string }[];
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user", "user"]);
    const toolTurn = messages[2]?.content as { type: string; tool_use_id: string }[];
    expect(toolTurn.map((block) => block.tool_use_id)).toEqual([
      "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
      "toolu_01CNzzTXrUXo8ZSyXbZ2Rr2N",
      "toolu_01Sx8WJ9gkPrzWNE7cVJvqcY",
    ]);
    expect(result.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
  });

  it("turns tool call arguments into objects (an empty string is {})", () => {
    const result = convert(readFixtureJson("chat-request/multi-turn-tool-results.openai.json"));
    const assistant = (result.messages as { content: Record<string, unknown>[] }[])[1]?.content;
    expect(assistant?.filter((block) => block.type === "tool_use").map((block) => block.input)).toEqual([
      { location: "Paris" },
      { location: "Tokyo" },
      {},
    ]);
  });

  it("uses the default max_tokens only when neither max field is given", () => {
    expect(convert({ model: "m", messages: [userMessage] }).max_tokens).toBe(4096);
    expect(convert({ model: "m", messages: [userMessage], max_tokens: 10 }).max_tokens).toBe(10);
    expect(convert({ model: "m", messages: [userMessage], max_tokens: 10, max_completion_tokens: 20 }).max_tokens).toBe(20);
  });

  it("replaces the model when the options name the upstream model", () => {
    expect(convertChatRequestToAnthropic({ model: "anthropic/claude", messages: [userMessage] }, { ...options, model: "claude-x" }).model).toBe(
      "claude-x",
    );
  });

  it("maps tool_choice values", () => {
    const tools = [{ type: "function", function: { name: "f" } }];
    const choice = (toolChoice: unknown) => convert({ model: "m", messages: [userMessage], tools, tool_choice: toolChoice }).tool_choice;
    expect(choice("auto")).toEqual({ type: "auto" });
    expect(choice("none")).toEqual({ type: "none" });
    expect(choice("required")).toEqual({ type: "any" });
    expect(choice({ type: "function", function: { name: "f" } })).toEqual({ type: "tool", name: "f" });
    expect(convert({ model: "m", messages: [userMessage], tools, parallel_tool_calls: false }).tool_choice).toEqual({
      type: "auto",
      disable_parallel_tool_use: true,
    });
    expect(convert({ model: "m", messages: [userMessage], tools, parallel_tool_calls: true }).tool_choice).toBeUndefined();
  });

  it("forces the response_format tool and names it for the way back", () => {
    const request = readFixtureJson("chat-request/response-format-json-schema.openai.json");
    const result = convert(request);
    expect(getJsonResponseToolName(request)).toBe("math_answer");
    expect(result.tool_choice).toEqual({ type: "tool", name: "math_answer" });
    expect(getJsonResponseToolName({ response_format: { type: "text" } })).toBeUndefined();
  });

  it("refuses a response_format whose tool name clashes with a caller tool", () => {
    const error = refusal({
      model: "m",
      messages: [userMessage],
      tools: [{ type: "function", function: { name: "answer" } }],
      response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" } } },
    });
    expect(error.param).toBe("response_format");
  });

  it("rejects invalid JSON tool arguments with a 400 naming the parameter", () => {
    const error = refusal({
      model: "m",
      messages: [
        userMessage,
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{not json" } }] },
      ],
    });
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe("messages[1].tool_calls[0].function.arguments");
  });

  it("treats null as absent and default values of unrepresentable fields as no-ops", () => {
    const result = convert({
      model: "m",
      messages: [userMessage],
      n: 1,
      logprobs: false,
      top_logprobs: null,
      seed: null,
      presence_penalty: 0,
      frequency_penalty: 0,
      logit_bias: {},
      store: false,
      modalities: ["text"],
      temperature: null,
    });
    expect(result).toEqual({ model: "m", max_tokens: 4096, messages: [userMessage] });
  });
});

describe("convertChatRequestToAnthropic refuses what Anthropic cannot represent", () => {
  const base = { model: "m", messages: [userMessage] };
  it.each<[string, Record<string, unknown>, string]>([
    ["n > 1", { ...base, n: 2 }, "n"],
    ["logprobs", { ...base, logprobs: true }, "logprobs"],
    ["top_logprobs", { ...base, top_logprobs: 3 }, "top_logprobs"],
    ["audio", { ...base, audio: { voice: "alloy", format: "wav" } }, "audio"],
    ["presence_penalty", { ...base, presence_penalty: 0.5 }, "presence_penalty"],
    ["frequency_penalty", { ...base, frequency_penalty: 1 }, "frequency_penalty"],
    ["seed", { ...base, seed: 42 }, "seed"],
    ["logit_bias", { ...base, logit_bias: { "50256": -100 } }, "logit_bias"],
    ["reasoning_effort", { ...base, reasoning_effort: "high" }, "reasoning_effort"],
    ["an unknown field", { ...base, frobnicate: true }, "frobnicate"],
    ["temperature above 1", { ...base, temperature: 1.5 }, "temperature"],
    ["a user message name", { ...base, messages: [{ role: "user", content: "Hi", name: "bob" }] }, "messages[0].name"],
    ["the function role", { ...base, messages: [{ role: "function", name: "f", content: "x" }] }, "messages[0].role"],
    [
      "input audio",
      { ...base, messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AAA", format: "wav" } }] }] },
      "messages[0].content[0].type",
    ],
    [
      "image detail",
      { ...base, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png", detail: "low" } }] }] },
      "messages[0].content[0].image_url.detail",
    ],
    [
      "an image media type Anthropic lacks",
      { ...base, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/bmp;base64,Qk0=" } }] }] },
      "messages[0].content[0].image_url.url",
    ],
    ["a custom tool", { ...base, tools: [{ type: "custom", custom: { name: "x" } }] }, "tools[0].type"],
    ["an unknown tool field", { ...base, tools: [{ type: "function", function: { name: "x", examples: [] } }] }, "tools[0].function.examples"],
    ["allowed_tools tool_choice", { ...base, tool_choice: { type: "allowed_tools", allowed_tools: {} } }, "tool_choice"],
    ["a non-object json_schema root", { ...base, response_format: { type: "json_schema", json_schema: { name: "a", schema: { type: "array" } } } }, "response_format.json_schema.schema"],
    ["a cache_control type other than ephemeral", { ...base, messages: [{ role: "user", content: [{ type: "text", text: "x", cache_control: { type: "persistent" } }] }] }, "messages[0].content[0].cache_control.type"],
    ["stream_options fields beyond include_usage", { ...base, stream: true, stream_options: { include_usage: true, chunk_size: 3 } }, "stream_options.chunk_size"],
  ])("%s", (_name, body, param) => {
    const error = refusal(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe("unsupported_feature");
    expect(error.param).toBe(param);
  });

  it("reports malformed values as invalid_request", () => {
    expect(refusal({ model: "m", messages: "hi" }).code).toBe("invalid_request");
    expect(refusal({ model: "m", messages: [userMessage], max_tokens: 0 }).param).toBe("max_tokens");
    expect(refusal({ model: "m", messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "ftp://x" } }] }] }).param).toBe(
      "messages[0].content[0].image_url.url",
    );
  });
});

describe("convertChatRequestToAnthropic: field names of Object.prototype", () => {
  // JSON.parse makes every one of these an own property, `__proto__` included.
  it.each(["valueOf", "hasOwnProperty", "__proto__", "toString", "constructor", "isPrototypeOf"])(
    "refuses a top-level '%s' by name like any unknown field",
    (name) => {
      const error = refusal(JSON.parse(`{"model":"m","messages":[{"role":"user","content":"Hi"}],"${name}":{}}`));
      expect(error.code).toBe("unsupported_feature");
      expect(error.param).toBe(name);
    },
  );

  it("refuses '__proto__' inside a message by name", () => {
    const error = refusal(JSON.parse('{"model":"m","messages":[{"role":"user","content":"Hi","__proto__":{"x":1}}]}'));
    expect(error.param).toBe("messages[0].__proto__");
  });
});
