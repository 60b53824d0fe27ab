import type { JsonObject } from "@gateway/contracts";
import {
  expectArray,
  expectBoolean,
  expectNumber,
  expectObject,
  expectPositiveInteger,
  expectString,
  invalidRequest,
  isJsonObject,
  joinParam,
  rejectUnknownKeys,
  unsupportedFeature,
} from "../request-guards.js";

/** Options of {@link convertMessagesRequestToChat}. */
export interface ConvertMessagesRequestToChatOptions {
  /** Upstream model name; replaces the request's `model` when given. */
  model?: string;
}

const target = "an OpenAI-compatible model";

const supportedKeys = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "temperature",
  "top_p",
  "stop_sequences",
  "stream",
  "metadata",
]);

/** Known Anthropic fields without an OpenAI equivalent; the predicate accepts values that change nothing. */
const unrepresentableKeys: ReadonlyMap<string, (value: unknown) => boolean> = new Map<string, (value: unknown) => boolean>([
  ["top_k", () => false],
  ["thinking", (value) => isJsonObject(value) && value.type === "disabled"],
  ["service_tier", () => false],
  ["container", () => false],
  ["mcp_servers", () => false],
  ["context_management", () => false],
]);

/**
 * Converts an Anthropic messages request body into an OpenAI chat completions request body
 * (see `SUPPORTED.md`). `cache_control` is accepted and dropped (OpenAI caches prompts
 * automatically and reports cache reads in usage); previous-turn `thinking` blocks are dropped
 * (Anthropic itself ignores them). Anything else that cannot be represented throws
 * `GatewayError("unsupported_feature")` naming the field. A streamed request always asks for
 * `stream_options.include_usage` so the call can be billed.
 */
export function convertMessagesRequestToChat(
  body: Record<string, unknown>,
  options: ConvertMessagesRequestToChatOptions = {},
): JsonObject {
  for (const [key, value] of Object.entries(body)) {
    if (supportedKeys.has(key)) continue;
    const isNoOp = unrepresentableKeys.get(key);
    if (isNoOp !== undefined && (value === null || isNoOp(value))) continue;
    throw unsupportedFeature(
      key,
      isNoOp === undefined
        ? `Unknown field '${key}' is not supported when translating to ${target}.`
        : `'${key}' is not supported when translating to ${target}.`,
    );
  }

  const result: JsonObject = { model: options.model ?? expectString(body.model, "model") };
  const messages: JsonObject[] = [];
  if (body.system !== undefined && body.system !== null) messages.push(convertSystem(body.system));
  expectArray(body.messages, "messages").forEach((rawMessage, index) => {
    messages.push(...convertMessage(rawMessage, `messages[${index}]`));
  });
  result.messages = messages;
  result.max_completion_tokens = expectPositiveInteger(body.max_tokens, "max_tokens");

  const hasTools = body.tools !== undefined && body.tools !== null;
  if (hasTools) result.tools = expectArray(body.tools, "tools").map((tool, index) => convertTool(tool, `tools[${index}]`));
  if (body.tool_choice !== undefined && body.tool_choice !== null) {
    const { toolChoice, parallelToolCalls } = convertToolChoice(body.tool_choice);
    result.tool_choice = toolChoice;
    if (parallelToolCalls !== undefined) result.parallel_tool_calls = parallelToolCalls;
  }

  if (body.temperature !== undefined && body.temperature !== null) result.temperature = expectNumber(body.temperature, "temperature");
  if (body.top_p !== undefined && body.top_p !== null) result.top_p = expectNumber(body.top_p, "top_p");
  if (body.stop_sequences !== undefined && body.stop_sequences !== null) {
    result.stop = expectArray(body.stop_sequences, "stop_sequences").map((sequence, index) =>
      expectString(sequence, `stop_sequences[${index}]`),
    );
  }
  if (body.metadata !== undefined && body.metadata !== null) {
    const metadata = expectObject(body.metadata, "metadata");
    rejectUnknownKeys(metadata, new Set(["user_id"]), "metadata", target);
    if (metadata.user_id !== undefined && metadata.user_id !== null) result.user = expectString(metadata.user_id, "metadata.user_id");
  }
  if (body.stream !== undefined && body.stream !== null) {
    const stream = expectBoolean(body.stream, "stream");
    result.stream = stream;
    if (stream) result.stream_options = { include_usage: true };
  }
  return result;
}

function convertSystem(system: unknown): JsonObject {
  if (typeof system === "string") return { role: "system", content: system };
  const parts = expectArray(system, "system").map((rawBlock, index) => {
    const param = `system[${index}]`;
    const block = expectObject(rawBlock, param);
    if (block.type !== "text") {
      throw unsupportedFeature(joinParam(param, "type"), `System block type '${String(block.type)}' is not supported.`);
    }
    rejectUnknownKeys(block, new Set(["type", "text", "cache_control", "citations"]), param, target);
    rejectCitations(block, param);
    return { type: "text", text: expectString(block.text, joinParam(param, "text")) };
  });
  return { role: "system", content: parts.length === 1 ? parts[0]?.text : parts };
}

function rejectCitations(block: JsonObject, param: string): void {
  if (block.citations !== undefined && block.citations !== null && !(Array.isArray(block.citations) && block.citations.length === 0)) {
    throw unsupportedFeature(joinParam(param, "citations"), `'${joinParam(param, "citations")}' is not supported when translating to ${target}.`);
  }
}

function convertMessage(rawMessage: unknown, param: string): JsonObject[] {
  const message = expectObject(rawMessage, param);
  rejectUnknownKeys(message, new Set(["role", "content"]), param, target);
  const contentParam = joinParam(param, "content");
  if (message.role === "user") {
    if (typeof message.content === "string") return [{ role: "user", content: message.content }];
    const toolMessages: JsonObject[] = [];
    const parts: JsonObject[] = [];
    expectArray(message.content, contentParam).forEach((rawBlock, index) => {
      const blockParam = joinParam(contentParam, index);
      const block = expectObject(rawBlock, blockParam);
      if (block.type === "tool_result") toolMessages.push(convertToolResult(block, blockParam));
      else parts.push(convertUserBlock(block, blockParam));
    });
    const result = [...toolMessages];
    if (parts.length > 0) result.push({ role: "user", content: parts });
    return result;
  }
  if (message.role === "assistant") {
    if (typeof message.content === "string") return [{ role: "assistant", content: message.content }];
    const texts: string[] = [];
    const toolCalls: JsonObject[] = [];
    expectArray(message.content, contentParam).forEach((rawBlock, index) => {
      const blockParam = joinParam(contentParam, index);
      const block = expectObject(rawBlock, blockParam);
      switch (block.type) {
        case "text":
          rejectUnknownKeys(block, new Set(["type", "text", "cache_control", "citations"]), blockParam, target);
          rejectCitations(block, blockParam);
          texts.push(expectString(block.text, joinParam(blockParam, "text")));
          return;
        case "tool_use": {
          rejectUnknownKeys(block, new Set(["type", "id", "name", "input", "cache_control"]), blockParam, target);
          toolCalls.push({
            id: expectString(block.id, joinParam(blockParam, "id")),
            type: "function",
            function: {
              name: expectString(block.name, joinParam(blockParam, "name")),
              arguments: JSON.stringify(expectObject(block.input, joinParam(blockParam, "input"))),
            },
          });
          return;
        }
        case "thinking":
        case "redacted_thinking":
          return; // previous-turn thinking is ignored by Anthropic too
        default:
          throw unsupportedFeature(
            joinParam(blockParam, "type"),
            `Assistant block type '${String(block.type)}' is not supported when translating to ${target}.`,
          );
      }
    });
    const converted: JsonObject = { role: "assistant", content: texts.length === 0 ? null : texts.join("") };
    if (toolCalls.length > 0) converted.tool_calls = toolCalls;
    return [converted];
  }
  throw invalidRequest(joinParam(param, "role"), `'${joinParam(param, "role")}' must be "user" or "assistant".`);
}

function convertUserBlock(block: JsonObject, param: string): JsonObject {
  if (block.type === "text") {
    rejectUnknownKeys(block, new Set(["type", "text", "cache_control", "citations"]), param, target);
    rejectCitations(block, param);
    return { type: "text", text: expectString(block.text, joinParam(param, "text")) };
  }
  if (block.type === "image") {
    rejectUnknownKeys(block, new Set(["type", "source", "cache_control"]), param, target);
    const sourceParam = joinParam(param, "source");
    const source = expectObject(block.source, sourceParam);
    if (source.type === "base64") {
      rejectUnknownKeys(source, new Set(["type", "media_type", "data"]), sourceParam, target);
      const mediaType = expectString(source.media_type, joinParam(sourceParam, "media_type"));
      const data = expectString(source.data, joinParam(sourceParam, "data"));
      return { type: "image_url", image_url: { url: `data:${mediaType};base64,${data}` } };
    }
    if (source.type === "url") {
      rejectUnknownKeys(source, new Set(["type", "url"]), sourceParam, target);
      return { type: "image_url", image_url: { url: expectString(source.url, joinParam(sourceParam, "url")) } };
    }
    throw unsupportedFeature(
      joinParam(sourceParam, "type"),
      `Image source type '${String(source.type)}' is not supported when translating to ${target}.`,
    );
  }
  throw unsupportedFeature(
    joinParam(param, "type"),
    `Content block type '${String(block.type)}' is not supported when translating to ${target}.`,
  );
}

function convertToolResult(block: JsonObject, param: string): JsonObject {
  rejectUnknownKeys(block, new Set(["type", "tool_use_id", "content", "is_error", "cache_control"]), param, target);
  const contentParam = joinParam(param, "content");
  let text: string;
  if (block.content === undefined || block.content === null) text = "";
  else if (typeof block.content === "string") text = block.content;
  else {
    text = expectArray(block.content, contentParam)
      .map((rawPart, index) => {
        const partParam = joinParam(contentParam, index);
        const part = expectObject(rawPart, partParam);
        if (part.type !== "text") {
          throw unsupportedFeature(
            joinParam(partParam, "type"),
            `Tool result content of type '${String(part.type)}' is not supported when translating to ${target} (tool messages carry text only).`,
          );
        }
        rejectUnknownKeys(part, new Set(["type", "text", "cache_control", "citations"]), partParam, target);
        rejectCitations(part, partParam);
        return expectString(part.text, joinParam(partParam, "text"));
      })
      .join("");
  }
  if (block.is_error !== undefined && block.is_error !== null && expectBoolean(block.is_error, joinParam(param, "is_error"))) {
    text = `Error: ${text}`;
  }
  return { role: "tool", tool_call_id: expectString(block.tool_use_id, joinParam(param, "tool_use_id")), content: text };
}

function convertTool(rawTool: unknown, param: string): JsonObject {
  const tool = expectObject(rawTool, param);
  if (tool.type !== undefined && tool.type !== null && tool.type !== "custom") {
    throw unsupportedFeature(
      joinParam(param, "type"),
      `Tool type '${String(tool.type)}' (a server or client tool of Anthropic) is not supported when translating to ${target}.`,
    );
  }
  rejectUnknownKeys(tool, new Set(["type", "name", "description", "input_schema", "cache_control", "strict"]), param, target);
  const definition: JsonObject = { name: expectString(tool.name, joinParam(param, "name")) };
  if (tool.description !== undefined && tool.description !== null) {
    definition.description = expectString(tool.description, joinParam(param, "description"));
  }
  definition.parameters = expectObject(tool.input_schema, joinParam(param, "input_schema"));
  if (tool.strict !== undefined && tool.strict !== null) definition.strict = expectBoolean(tool.strict, joinParam(param, "strict"));
  return { type: "function", function: definition };
}

function convertToolChoice(rawChoice: unknown): { toolChoice: unknown; parallelToolCalls: boolean | undefined } {
  const choice = expectObject(rawChoice, "tool_choice");
  const parallelToolCalls =
    choice.disable_parallel_tool_use === undefined || choice.disable_parallel_tool_use === null
      ? undefined
      : expectBoolean(choice.disable_parallel_tool_use, "tool_choice.disable_parallel_tool_use")
        ? false
        : undefined;
  switch (choice.type) {
    case "auto":
      rejectUnknownKeys(choice, new Set(["type", "disable_parallel_tool_use"]), "tool_choice", target);
      return { toolChoice: "auto", parallelToolCalls };
    case "any":
      rejectUnknownKeys(choice, new Set(["type", "disable_parallel_tool_use"]), "tool_choice", target);
      return { toolChoice: "required", parallelToolCalls };
    case "none":
      rejectUnknownKeys(choice, new Set(["type"]), "tool_choice", target);
      return { toolChoice: "none", parallelToolCalls: undefined };
    case "tool":
      rejectUnknownKeys(choice, new Set(["type", "name", "disable_parallel_tool_use"]), "tool_choice", target);
      return {
        toolChoice: { type: "function", function: { name: expectString(choice.name, "tool_choice.name") } },
        parallelToolCalls,
      };
    default:
      throw invalidRequest("tool_choice.type", "'tool_choice.type' must be \"auto\", \"any\", \"none\" or \"tool\".");
  }
}
