import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { expectJsonGolden, readFixtureJson } from "../__fixtures__/golden.js";
import { convertMessagesRequestToChat } from "./convert-messages-request-to-chat.js";

const userMessage = { role: "user", content: "Hi" };
const base = { model: "openai/gpt-4o", max_tokens: 100, messages: [userMessage] };

function refusal(body: Record<string, unknown>): GatewayError {
  try {
    convertMessagesRequestToChat(body);
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the conversion to be refused");
}

describe("convertMessagesRequestToChat (golden)", () => {
  it.each(["cache-control-system-messages-tools", "images", "multi-turn-tool-results"])("%s", (name) => {
    const request = readFixtureJson(`messages-request/${name}.anthropic.json`);
    expectJsonGolden(`messages-request/${name}.openai.json`, convertMessagesRequestToChat(request));
  });
});

describe("convertMessagesRequestToChat", () => {
  it("always asks for usage on streamed requests so they can be billed", () => {
    const result = convertMessagesRequestToChat({ ...base, stream: true });
    expect(result.stream).toBe(true);
    expect(result.stream_options).toEqual({ include_usage: true });
    expect(convertMessagesRequestToChat({ ...base, stream: false }).stream_options).toBeUndefined();
  });

  it("maps max_tokens, stop_sequences, metadata.user_id and the system prompt", () => {
    const result = convertMessagesRequestToChat({
      ...base,
      system: "Be short.",
      stop_sequences: ["END"],
      metadata: { user_id: "u-1" },
    });
    expect(result).toMatchObject({ max_completion_tokens: 100, stop: ["END"], user: "u-1" });
    expect((result.messages as unknown[])[0]).toEqual({ role: "system", content: "Be short." });
  });

  it("maps tool_choice values and disable_parallel_tool_use", () => {
    const tools = [{ name: "f", input_schema: { type: "object" } }];
    const convert = (toolChoice: unknown) => convertMessagesRequestToChat({ ...base, tools, tool_choice: toolChoice });
    expect(convert({ type: "auto" }).tool_choice).toBe("auto");
    expect(convert({ type: "any" }).tool_choice).toBe("required");
    expect(convert({ type: "none" }).tool_choice).toBe("none");
    expect(convert({ type: "tool", name: "f" }).tool_choice).toEqual({ type: "function", function: { name: "f" } });
    expect(convert({ type: "auto", disable_parallel_tool_use: true }).parallel_tool_calls).toBe(false);
    expect(convert({ type: "auto", disable_parallel_tool_use: false })).not.toHaveProperty("parallel_tool_calls");
  });

  it("splits tool results into tool messages placed before the rest of the user turn", () => {
    const result = convertMessagesRequestToChat(readFixtureJson("messages-request/multi-turn-tool-results.anthropic.json"));
    const roles = (result.messages as { role: string }[]).map((message) => message.role);
    expect(roles).toEqual(["user", "assistant", "tool", "tool", "tool", "user"]);
  });

  it("drops cache_control (OpenAI caches automatically) and keeps everything else of the block", () => {
    const result = convertMessagesRequestToChat(readFixtureJson("messages-request/cache-control-system-messages-tools.anthropic.json"));
    expect(JSON.stringify(result)).not.toContain("cache_control");
    expect(JSON.stringify(result)).toContain("Long reference document about every city in Europe...");
  });

  it("replaces the model when the options name the upstream model", () => {
    expect(convertMessagesRequestToChat(base, { model: "gpt-4o-2024-08-06" }).model).toBe("gpt-4o-2024-08-06");
  });
});

describe("convertMessagesRequestToChat refuses what OpenAI cannot represent", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["top_k", { ...base, top_k: 40 }, "top_k"],
    ["extended thinking", { ...base, thinking: { type: "enabled", budget_tokens: 2048 } }, "thinking"],
    ["an unknown field", { ...base, frobnicate: 1 }, "frobnicate"],
    ["mcp_servers", { ...base, mcp_servers: [{ type: "url", url: "https://x.test", name: "x" }] }, "mcp_servers"],
    ["metadata beyond user_id", { ...base, metadata: { user_id: "u", tier: "gold" } }, "metadata.tier"],
    ["a server tool", { ...base, tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 3 }] }, "tools[0].type"],
    [
      "a document block",
      { ...base, messages: [{ role: "user", content: [{ type: "document", source: { type: "text", media_type: "text/plain", data: "x" } }] }] },
      "messages[0].content[0].type",
    ],
    [
      "an image inside a tool result",
      {
        ...base,
        messages: [
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "t1",
                content: [{ type: "image", source: { type: "url", url: "https://x.test/a.png" } }],
              },
            ],
          },
        ],
      },
      "messages[0].content[0].content[0].type",
    ],
    ["citations on a text block", { ...base, messages: [{ role: "user", content: [{ type: "text", text: "x", citations: [{ type: "char_location" }] }] }] }, "messages[0].content[0].citations"],
    ["a file image source", { ...base, messages: [{ role: "user", content: [{ type: "image", source: { type: "file", file_id: "file_1" } }] }] }, "messages[0].content[0].source.type"],
  ])("%s", (_name, body, param) => {
    const error = refusal(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe("unsupported_feature");
    expect(error.param).toBe(param);
  });

  it("reports a missing max_tokens or a bad role as invalid_request", () => {
    expect(refusal({ model: "m", messages: [userMessage] }).param).toBe("max_tokens");
    expect(refusal({ ...base, messages: [{ role: "system", content: "x" }] }).code).toBe("invalid_request");
  });
});

describe("convertMessagesRequestToChat: field names of Object.prototype", () => {
  // JSON.parse makes every one of these an own property, `__proto__` included.
  it.each(["valueOf", "hasOwnProperty", "__proto__", "toString", "constructor", "isPrototypeOf"])(
    "refuses a top-level '%s' by name like any unknown field",
    (name) => {
      const error = refusal(JSON.parse(`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"Hi"}],"${name}":{}}`));
      expect(error.code).toBe("unsupported_feature");
      expect(error.param).toBe(name);
    },
  );
});
