import type { JsonObject } from "@gateway/contracts";
import { JSON_OBJECT_TOOL_NAME } from "./get-json-response-tool-name.js";
import {
  expectArray,
  expectBoolean,
  expectCacheControl,
  expectNumber,
  expectObject,
  expectPositiveInteger,
  expectString,
  invalidRequest,
  isJsonObject,
  joinParam,
  parseToolArguments,
  rejectUnknownKeys,
  unsupportedFeature,
} from "../request-guards.js";

/** Options of {@link convertChatRequestToAnthropic}. */
/**
 * `max_tokens` sent on a request translated to Anthropic messages that has neither
 * `max_completion_tokens` nor `max_tokens` (Anthropic requires one), unless the model says
 * otherwise (`ChatModel.maxTokensDefault`). Kept here, in a module that imports no provider:
 * `providers/anthropic/provider.ts` reads it while the generated registry is being loaded.
 */
export const translatedMaxTokensDefault = 4096;

export interface ConvertChatRequestToAnthropicOptions {
  /** `max_tokens` sent when the request has neither `max_completion_tokens` nor `max_tokens` (Anthropic requires one). */
  defaultMaxTokens: number;
  /** Upstream model name; replaces the request's `model` when given. */
  model?: string;
}

const target = "Anthropic";

const supportedKeys = new Set([
  "model",
  "messages",
  "max_completion_tokens",
  "max_tokens",
  "temperature",
  "top_p",
  "stop",
  "stream",
  "stream_options",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "response_format",
  "user",
  "safety_identifier",
]);

/**
 * Known OpenAI fields Anthropic cannot represent. `null` always means "absent"; the listed
 * default value changes nothing and is accepted as a no-op; anything else is refused.
 */
const unrepresentableKeys: ReadonlyMap<string, (value: unknown) => boolean> = new Map<string, (value: unknown) => boolean>([
  ["n", (value) => value === 1],
  ["logprobs", (value) => value === false],
  ["top_logprobs", () => false],
  ["presence_penalty", (value) => value === 0],
  ["frequency_penalty", (value) => value === 0],
  ["logit_bias", (value) => isJsonObject(value) && Object.keys(value).length === 0],
  ["seed", () => false],
  ["store", (value) => value === false],
  ["metadata", (value) => isJsonObject(value) && Object.keys(value).length === 0],
  ["modalities", (value) => Array.isArray(value) && value.length === 1 && value[0] === "text"],
  ["service_tier", (value) => value === "auto"],
  ["audio", () => false],
  ["prediction", () => false],
  ["reasoning_effort", () => false],
  ["verbosity", () => false],
  ["web_search_options", () => false],
  ["functions", () => false],
  ["function_call", () => false],
  ["prompt_cache_key", () => false],
  ["prompt_cache_retention", () => false],
]);

const anthropicImageMediaTypes = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * Converts an OpenAI chat completions request body into an Anthropic messages request body.
 * Supports the documented subset (see `SUPPORTED.md`); any other field, or a supported field
 * with a value Anthropic cannot represent, throws `GatewayError("unsupported_feature")` whose
 * `param` names the field. Malformed values throw `invalid_request`.
 */
export function convertChatRequestToAnthropic(
  body: Record<string, unknown>,
  options: ConvertChatRequestToAnthropicOptions,
): JsonObject {
  for (const [key, value] of Object.entries(body)) {
    if (supportedKeys.has(key)) continue;
    const isNoOp = unrepresentableKeys.get(key);
    if (isNoOp !== undefined) {
      if (value === null || isNoOp(value)) continue;
      throw unsupportedFeature(key, `'${key}' is not supported when translating to Anthropic.`);
    }
    throw unsupportedFeature(key, `Unknown field '${key}' is not supported when translating to Anthropic.`);
  }

  const model = options.model ?? expectString(body.model, "model");
  const { system, messages } = convertMessages(expectArray(body.messages, "messages"));

  const maxTokens =
    present(body.max_completion_tokens) !== undefined
      ? expectPositiveInteger(body.max_completion_tokens, "max_completion_tokens")
      : present(body.max_tokens) !== undefined
        ? expectPositiveInteger(body.max_tokens, "max_tokens")
        : options.defaultMaxTokens;

  const result: JsonObject = { model, max_tokens: maxTokens };
  if (system !== undefined) result.system = system;
  result.messages = messages;

  const tools = present(body.tools) === undefined ? [] : convertTools(expectArray(body.tools, "tools"));
  let toolChoice = present(body.tool_choice) === undefined ? undefined : convertToolChoice(body.tool_choice);

  const jsonTool = present(body.response_format) === undefined ? undefined : convertResponseFormat(body.response_format);
  if (jsonTool !== undefined) {
    const clash = tools.findIndex((tool) => tool.name === jsonTool.name);
    if (clash !== -1) {
      throw unsupportedFeature(
        "response_format",
        `'response_format' is translated to a tool named '${String(jsonTool.name)}', which 'tools[${clash}]' already uses.`,
      );
    }
    const hadUserTools = tools.length > 0;
    tools.push(jsonTool);
    if (!hadUserTools || toolChoice?.type === "none") toolChoice = { type: "tool", name: jsonTool.name };
    else if (toolChoice === undefined || toolChoice.type === "auto") toolChoice = { type: "any" };
  }

  if (present(body.parallel_tool_calls) !== undefined) {
    const parallel = expectBoolean(body.parallel_tool_calls, "parallel_tool_calls");
    if (!parallel && tools.length > 0 && toolChoice?.type !== "none") {
      toolChoice = { ...(toolChoice ?? { type: "auto" }), disable_parallel_tool_use: true };
    }
  }

  if (tools.length > 0) result.tools = tools;
  if (toolChoice !== undefined) result.tool_choice = toolChoice;

  if (present(body.temperature) !== undefined) {
    const temperature = expectNumber(body.temperature, "temperature");
    if (temperature < 0 || temperature > 1) {
      throw unsupportedFeature("temperature", "'temperature' must be between 0 and 1 for Anthropic models.");
    }
    result.temperature = temperature;
  }
  if (present(body.top_p) !== undefined) result.top_p = expectNumber(body.top_p, "top_p");
  if (present(body.stop) !== undefined) result.stop_sequences = convertStop(body.stop);

  const userId = convertUserId(body);
  if (userId !== undefined) result.metadata = { user_id: userId };

  if (present(body.stream) !== undefined) result.stream = expectBoolean(body.stream, "stream");
  if (present(body.stream_options) !== undefined) validateStreamOptions(body.stream_options);
  return result;
}

function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

interface ConvertedMessages {
  system: string | JsonObject[] | undefined;
  messages: JsonObject[];
}

function convertMessages(rawMessages: unknown[]): ConvertedMessages {
  const systemBlocks: JsonObject[] = [];
  const messages: JsonObject[] = [];
  // The user turn that collects consecutive tool results, while the last message was a tool message.
  let toolResultTurn: JsonObject[] | undefined;

  rawMessages.forEach((rawMessage, index) => {
    const param = `messages[${index}]`;
    const message = expectObject(rawMessage, param);
    const role = message.role;
    switch (role) {
      case "system":
      case "developer": {
        rejectUnknownKeys(message, new Set(["role", "content", "cache_control"]), param, target);
        const blocks = convertTextContent(message.content, joinParam(param, "content"));
        applyMessageCacheControl(blocks, message, param);
        systemBlocks.push(...blocks);
        return;
      }
      case "user": {
        rejectUnknownKeys(message, new Set(["role", "content", "cache_control"]), param, target);
        toolResultTurn = undefined;
        const contentParam = joinParam(param, "content");
        if (typeof message.content === "string" && message.cache_control === undefined) {
          messages.push({ role: "user", content: message.content });
          return;
        }
        const blocks =
          typeof message.content === "string"
            ? [{ type: "text", text: message.content }]
            : expectArray(message.content, contentParam).map((part, partIndex) =>
                convertUserPart(part, joinParam(contentParam, partIndex)),
              );
        applyMessageCacheControl(blocks, message, param);
        messages.push({ role: "user", content: blocks });
        return;
      }
      case "assistant": {
        messages.push(convertAssistantMessage(message, param));
        toolResultTurn = undefined;
        return;
      }
      case "tool": {
        rejectUnknownKeys(message, new Set(["role", "tool_call_id", "content", "cache_control"]), param, target);
        const block: JsonObject = {
          type: "tool_result",
          tool_use_id: expectString(message.tool_call_id, joinParam(param, "tool_call_id")),
          content: convertToolResultContent(message.content, joinParam(param, "content")),
        };
        applyMessageCacheControl([block], message, param);
        if (toolResultTurn === undefined) {
          toolResultTurn = [];
          messages.push({ role: "user", content: toolResultTurn });
        }
        toolResultTurn.push(block);
        return;
      }
      default:
        throw unsupportedFeature(
          joinParam(param, "role"),
          `Message role '${String(role)}' is not supported when translating to Anthropic.`,
        );
    }
  });

  let system: string | JsonObject[] | undefined;
  if (systemBlocks.length === 1 && systemBlocks[0]?.cache_control === undefined) {
    system = String(systemBlocks[0]?.text);
  } else if (systemBlocks.length > 0) {
    system = systemBlocks;
  }
  return { system, messages };
}

/** A message-level `cache_control` (a common OpenAI-compatible extension) goes on the message's last block. */
function applyMessageCacheControl(blocks: JsonObject[], message: JsonObject, param: string): void {
  if (message.cache_control === undefined || message.cache_control === null) return;
  const cacheControl = expectCacheControl(message.cache_control, joinParam(param, "cache_control"));
  const last = blocks.at(-1);
  if (last === undefined) throw invalidRequest(joinParam(param, "cache_control"), "'cache_control' needs non-empty content.");
  last.cache_control = cacheControl;
}

/** String or text parts -> Anthropic text blocks (keeping `cache_control`). */
function convertTextContent(content: unknown, param: string): JsonObject[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return expectArray(content, param).map((rawPart, partIndex) => {
    const partParam = joinParam(param, partIndex);
    const part = expectObject(rawPart, partParam);
    if (part.type !== "text") {
      throw unsupportedFeature(
        joinParam(partParam, "type"),
        `Content part type '${String(part.type)}' is not supported here when translating to Anthropic.`,
      );
    }
    return convertTextPart(part, partParam);
  });
}

function convertTextPart(part: JsonObject, param: string): JsonObject {
  rejectUnknownKeys(part, new Set(["type", "text", "cache_control"]), param, target);
  const block: JsonObject = { type: "text", text: expectString(part.text, joinParam(param, "text")) };
  if (part.cache_control !== undefined && part.cache_control !== null) {
    block.cache_control = expectCacheControl(part.cache_control, joinParam(param, "cache_control"));
  }
  return block;
}

function convertUserPart(rawPart: unknown, param: string): JsonObject {
  const part = expectObject(rawPart, param);
  if (part.type === "text") return convertTextPart(part, param);
  if (part.type === "image_url") {
    rejectUnknownKeys(part, new Set(["type", "image_url", "cache_control"]), param, target);
    const imageParam = joinParam(param, "image_url");
    const image = expectObject(part.image_url, imageParam);
    rejectUnknownKeys(image, new Set(["url", "detail"]), imageParam, target);
    if (image.detail !== undefined && image.detail !== null && image.detail !== "auto") {
      throw unsupportedFeature(
        joinParam(imageParam, "detail"),
        `'${joinParam(imageParam, "detail")}' can only be "auto" when translating to Anthropic.`,
      );
    }
    const block: JsonObject = { type: "image", source: convertImageUrl(expectString(image.url, joinParam(imageParam, "url")), joinParam(imageParam, "url")) };
    if (part.cache_control !== undefined && part.cache_control !== null) {
      block.cache_control = expectCacheControl(part.cache_control, joinParam(param, "cache_control"));
    }
    return block;
  }
  throw unsupportedFeature(
    joinParam(param, "type"),
    `Content part type '${String(part.type)}' is not supported when translating to Anthropic.`,
  );
}

function convertImageUrl(url: string, param: string): JsonObject {
  if (url.startsWith("data:")) {
    const match = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s.exec(url);
    const mediaType = match?.[1]?.toLowerCase();
    const parameters = match?.[2]?.split(";") ?? [];
    if (match === null || mediaType === undefined || !parameters.includes("base64")) {
      throw unsupportedFeature(param, `'${param}' must be a base64 data URL (data:<media type>;base64,<data>) or an http(s) URL.`);
    }
    if (!anthropicImageMediaTypes.has(mediaType)) {
      throw unsupportedFeature(param, `Image media type '${mediaType}' is not supported by Anthropic (jpeg, png, gif, webp).`);
    }
    return { type: "base64", media_type: mediaType, data: match[3] ?? "" };
  }
  if (/^https?:\/\//i.test(url)) return { type: "url", url };
  throw invalidRequest(param, `'${param}' must be a base64 data URL or an http(s) URL.`);
}

function convertAssistantMessage(message: JsonObject, param: string): JsonObject {
  rejectUnknownKeys(
    message,
    new Set(["role", "content", "tool_calls", "refusal", "cache_control", "audio", "function_call"]),
    param,
    target,
  );
  for (const key of ["audio", "function_call"]) {
    if (message[key] !== undefined && message[key] !== null) {
      throw unsupportedFeature(joinParam(param, key), `'${joinParam(param, key)}' is not supported when translating to Anthropic.`);
    }
  }
  const contentParam = joinParam(param, "content");
  const toolCalls = present(message.tool_calls) === undefined ? [] : expectArray(message.tool_calls, joinParam(param, "tool_calls"));
  const hasRefusal = typeof message.refusal === "string" && message.refusal !== "";
  if (
    typeof message.content === "string" &&
    toolCalls.length === 0 &&
    !hasRefusal &&
    (message.cache_control === undefined || message.cache_control === null)
  ) {
    return { role: "assistant", content: message.content };
  }

  const blocks: JsonObject[] = [];
  if (typeof message.content === "string") {
    if (message.content !== "") blocks.push({ type: "text", text: message.content });
  } else if (present(message.content) !== undefined) {
    expectArray(message.content, contentParam).forEach((rawPart, partIndex) => {
      const partParam = joinParam(contentParam, partIndex);
      const part = expectObject(rawPart, partParam);
      if (part.type === "refusal") {
        rejectUnknownKeys(part, new Set(["type", "refusal"]), partParam, target);
        blocks.push({ type: "text", text: expectString(part.refusal, joinParam(partParam, "refusal")) });
      } else if (part.type === "text") {
        const block = convertTextPart(part, partParam);
        if (block.text !== "" || block.cache_control !== undefined) blocks.push(block);
      } else {
        throw unsupportedFeature(
          joinParam(partParam, "type"),
          `Assistant content part type '${String(part.type)}' is not supported when translating to Anthropic.`,
        );
      }
    });
  }
  if (hasRefusal) blocks.push({ type: "text", text: message.refusal });
  else if (message.refusal !== undefined && message.refusal !== null) expectString(message.refusal, joinParam(param, "refusal"));

  toolCalls.forEach((rawCall, callIndex) => {
    const callParam = joinParam(joinParam(param, "tool_calls"), callIndex);
    const call = expectObject(rawCall, callParam);
    rejectUnknownKeys(call, new Set(["id", "type", "function"]), callParam, target);
    if (call.type !== "function") {
      throw unsupportedFeature(joinParam(callParam, "type"), `Tool call type '${String(call.type)}' is not supported when translating to Anthropic.`);
    }
    const functionParam = joinParam(callParam, "function");
    const callFunction = expectObject(call.function, functionParam);
    rejectUnknownKeys(callFunction, new Set(["name", "arguments"]), functionParam, target);
    blocks.push({
      type: "tool_use",
      id: expectString(call.id, joinParam(callParam, "id")),
      name: expectString(callFunction.name, joinParam(functionParam, "name")),
      input: parseToolArguments(
        expectString(callFunction.arguments, joinParam(functionParam, "arguments")),
        joinParam(functionParam, "arguments"),
      ),
    });
  });
  applyMessageCacheControl(blocks, message, param);
  return { role: "assistant", content: blocks.length === 0 ? "" : blocks };
}

function convertToolResultContent(content: unknown, param: string): string | JsonObject[] {
  if (typeof content === "string") return content;
  return convertTextContent(content, param);
}

function convertTools(rawTools: unknown[]): JsonObject[] {
  return rawTools.map((rawTool, index) => {
    const param = `tools[${index}]`;
    const tool = expectObject(rawTool, param);
    if (tool.type !== "function") {
      throw unsupportedFeature(joinParam(param, "type"), `Tool type '${String(tool.type)}' is not supported when translating to Anthropic.`);
    }
    rejectUnknownKeys(tool, new Set(["type", "function", "cache_control"]), param, target);
    const functionParam = joinParam(param, "function");
    const definition = expectObject(tool.function, functionParam);
    rejectUnknownKeys(definition, new Set(["name", "description", "parameters", "strict"]), functionParam, target);
    const converted: JsonObject = { name: expectString(definition.name, joinParam(functionParam, "name")) };
    if (present(definition.description) !== undefined) {
      converted.description = expectString(definition.description, joinParam(functionParam, "description"));
    }
    converted.input_schema =
      present(definition.parameters) === undefined
        ? { type: "object", properties: {} }
        : expectObject(definition.parameters, joinParam(functionParam, "parameters"));
    if (present(definition.strict) !== undefined) {
      converted.strict = expectBoolean(definition.strict, joinParam(functionParam, "strict"));
    }
    if (present(tool.cache_control) !== undefined) {
      converted.cache_control = expectCacheControl(tool.cache_control, joinParam(param, "cache_control"));
    }
    return converted;
  });
}

function convertToolChoice(toolChoice: unknown): JsonObject {
  if (toolChoice === "auto") return { type: "auto" };
  if (toolChoice === "none") return { type: "none" };
  if (toolChoice === "required") return { type: "any" };
  if (isJsonObject(toolChoice) && toolChoice.type === "function") {
    rejectUnknownKeys(toolChoice, new Set(["type", "function"]), "tool_choice", target);
    const choiceFunction = expectObject(toolChoice.function, "tool_choice.function");
    rejectUnknownKeys(choiceFunction, new Set(["name"]), "tool_choice.function", target);
    return { type: "tool", name: expectString(choiceFunction.name, "tool_choice.function.name") };
  }
  throw unsupportedFeature("tool_choice", "'tool_choice' must be \"auto\", \"none\", \"required\" or {type:\"function\", function:{name}} when translating to Anthropic.");
}

function convertResponseFormat(rawFormat: unknown): JsonObject | undefined {
  const format = expectObject(rawFormat, "response_format");
  if (format.type === "text") {
    rejectUnknownKeys(format, new Set(["type"]), "response_format", target);
    return undefined;
  }
  if (format.type === "json_object") {
    rejectUnknownKeys(format, new Set(["type"]), "response_format", target);
    return {
      name: JSON_OBJECT_TOOL_NAME,
      description: "Give your final answer as a JSON object by calling this tool.",
      input_schema: { type: "object" },
    };
  }
  if (format.type === "json_schema") {
    rejectUnknownKeys(format, new Set(["type", "json_schema"]), "response_format", target);
    const schemaParam = "response_format.json_schema";
    const jsonSchema = expectObject(format.json_schema, schemaParam);
    rejectUnknownKeys(jsonSchema, new Set(["name", "description", "schema", "strict"]), schemaParam, target);
    const name = expectString(jsonSchema.name, `${schemaParam}.name`);
    const schema = present(jsonSchema.schema) === undefined ? { type: "object" } : expectObject(jsonSchema.schema, `${schemaParam}.schema`);
    if (schema.type !== "object") {
      throw unsupportedFeature(
        `${schemaParam}.schema`,
        "Anthropic can only produce a JSON object: the root of 'response_format.json_schema.schema' must have type \"object\".",
      );
    }
    const tool: JsonObject = {
      name,
      description:
        present(jsonSchema.description) === undefined
          ? "Give your final answer as JSON matching this schema by calling this tool."
          : expectString(jsonSchema.description, `${schemaParam}.description`),
      input_schema: schema,
    };
    if (present(jsonSchema.strict) !== undefined) tool.strict = expectBoolean(jsonSchema.strict, `${schemaParam}.strict`);
    return tool;
  }
  throw unsupportedFeature("response_format.type", `'response_format.type' '${String(format.type)}' is not supported when translating to Anthropic.`);
}

function convertStop(stop: unknown): string[] {
  if (typeof stop === "string") return [stop];
  return expectArray(stop, "stop").map((sequence, index) => expectString(sequence, `stop[${index}]`));
}

function convertUserId(body: Record<string, unknown>): string | undefined {
  const user = present(body.user) === undefined ? undefined : expectString(body.user, "user");
  const safetyIdentifier =
    present(body.safety_identifier) === undefined ? undefined : expectString(body.safety_identifier, "safety_identifier");
  if (user !== undefined && safetyIdentifier !== undefined && user !== safetyIdentifier) {
    throw unsupportedFeature("safety_identifier", "'user' and 'safety_identifier' differ; Anthropic has a single metadata.user_id.");
  }
  return safetyIdentifier ?? user;
}

function validateStreamOptions(rawOptions: unknown): void {
  const streamOptions = expectObject(rawOptions, "stream_options");
  rejectUnknownKeys(streamOptions, new Set(["include_usage", "include_obfuscation"]), "stream_options", target);
  if (present(streamOptions.include_usage) !== undefined) expectBoolean(streamOptions.include_usage, "stream_options.include_usage");
  if (streamOptions.include_obfuscation === true) {
    throw unsupportedFeature("stream_options.include_obfuscation", "'stream_options.include_obfuscation' is not supported when translating to Anthropic.");
  }
}
