import type { JsonObject } from "@gateway/contracts";
import type { ChatRequest } from "../../chat-request.js";
import { JSON_OBJECT_TOOL_NAME } from "../../formats/messages/get-json-response-tool-name.js";
import {
  expectArray,
  expectBoolean,
  expectNumber,
  expectObject,
  expectPositiveInteger,
  expectString,
  isJsonObject,
  joinParam,
  rejectUnknownKeys,
  unsupportedFeature,
} from "../../formats/request-guards.js";
import { convertChatMessagesToConverse, converseTarget } from "./convert-chat-messages-to-converse.js";

/** A Converse request body (the model id goes in the path) and how to read its answer. */
export interface ConverseCall {
  body: JsonObject;
  /** The forced tool that carries a `response_format` answer (its input is the answer's text). */
  jsonResponseTool?: string;
}

const supportedKeys = new Set(["model", "messages", "max_completion_tokens", "max_tokens", "temperature", "top_p", "stop", "stream", "stream_options", "tools", "tool_choice", "parallel_tool_calls", "response_format", "user", "metadata"]);

/** Fields Converse cannot represent; the value each accepts as a no-op (null is always absent). */
const noOpValues: ReadonlyMap<string, (value: unknown) => boolean> = new Map<string, (value: unknown) => boolean>([
  ["n", (value) => value === 1],
  ["logprobs", (value) => value === false],
  ["presence_penalty", (value) => value === 0],
  ["frequency_penalty", (value) => value === 0],
  ["logit_bias", (value) => isJsonObject(value) && Object.keys(value).length === 0],
  ["store", (value) => value === false],
  ["modalities", (value) => Array.isArray(value) && value.length === 1 && value[0] === "text"],
  ["service_tier", (value) => value === "auto"],
]);

/**
 * Converts the neutral chat request into a Converse request: `system` and `messages` (see
 * `convertChatMessagesToConverse`), `inferenceConfig` (`maxTokens` from
 * `max_completion_tokens` / `max_tokens`, else `defaultMaxTokens`; `temperature`, `topP`,
 * `stopSequences`), `toolConfig` (function tools as `toolSpec`s; `tool_choice` auto / required /
 * a function as `auto` / `any` / `tool`; `none` drops the tools when the conversation has no
 * tool blocks), `requestMetadata` from `user` and `metadata`. A `response_format` of
 * `json_schema` or `json_object` becomes a forced tool whose input is the answer. Anything
 * Converse cannot represent (other fields, `strict` tools, `parallel_tool_calls: false`, image
 * URLs, audio and files) is refused with `unsupported_feature` naming the field.
 */
export function convertChatRequestToConverse(request: ChatRequest, options: { defaultMaxTokens: number }): ConverseCall {
  for (const [key, value] of Object.entries(request)) {
    if (supportedKeys.has(key) || value === null || value === undefined) continue;
    if (noOpValues.get(key)?.(value) === true) continue;
    throw unsupportedFeature(key, `'${key}' is not supported when translating to ${converseTarget}.`);
  }
  const { system, messages, hasToolBlocks } = convertChatMessagesToConverse(expectArray(request.messages, "messages"));
  const body: JsonObject = { messages };
  if (system.length > 0) body.system = system;

  const inferenceConfig: JsonObject = {
    maxTokens: present(request.max_completion_tokens) !== undefined
      ? expectPositiveInteger(request.max_completion_tokens, "max_completion_tokens")
      : present(request.max_tokens) !== undefined
        ? expectPositiveInteger(request.max_tokens, "max_tokens")
        : options.defaultMaxTokens,
  };
  if (present(request.temperature) !== undefined) inferenceConfig.temperature = expectNumber(request.temperature, "temperature");
  if (present(request.top_p) !== undefined) inferenceConfig.topP = expectNumber(request.top_p, "top_p");
  if (present(request.stop) !== undefined) {
    inferenceConfig.stopSequences = typeof request.stop === "string" ? [request.stop] : expectArray(request.stop, "stop").map((entry, index) => expectString(entry, `stop[${index}]`));
  }
  body.inferenceConfig = inferenceConfig;

  const tools = present(request.tools) === undefined ? [] : expectArray(request.tools, "tools").map(convertTool);
  let toolChoice = present(request.tool_choice) === undefined ? undefined : convertToolChoice(request.tool_choice);
  if (present(request.parallel_tool_calls) !== undefined && !expectBoolean(request.parallel_tool_calls, "parallel_tool_calls") && tools.length > 0) {
    throw unsupportedFeature("parallel_tool_calls", `'parallel_tool_calls: false' is not supported when translating to ${converseTarget}.`);
  }
  const jsonTool = present(request.response_format) === undefined ? undefined : convertResponseFormat(request.response_format);
  if (jsonTool !== undefined) {
    const name = jsonTool.name;
    if (tools.some((tool) => (tool.toolSpec as JsonObject).name === name)) {
      throw unsupportedFeature("response_format", `'response_format' is translated to a tool named '${name}', which one of 'tools' already uses.`);
    }
    const hadTools = tools.length > 0 && toolChoice !== "none";
    tools.push({ toolSpec: jsonTool.spec });
    toolChoice = !hadTools ? { tool: { name } } : toolChoice === undefined || isJsonObject(toolChoice) && toolChoice.auto !== undefined ? { any: {} } : toolChoice;
  }
  if (toolChoice === "none") {
    if (hasToolBlocks) {
      throw unsupportedFeature("tool_choice", `'tool_choice: "none"' is not supported by ${converseTarget} in a conversation with tool calls.`);
    }
  } else if (tools.length > 0) {
    body.toolConfig = { tools, ...(toolChoice === undefined ? {} : { toolChoice }) };
  }

  const requestMetadata = convertRequestMetadata(request);
  if (requestMetadata !== undefined) body.requestMetadata = requestMetadata;
  return jsonTool === undefined ? { body } : { body, jsonResponseTool: jsonTool.name };
}

function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

function convertTool(rawTool: unknown, index: number): JsonObject {
  const param = `tools[${index}]`;
  const tool = expectObject(rawTool, param);
  if (tool.type !== "function") throw unsupportedFeature(joinParam(param, "type"), `Tool type '${String(tool.type)}' is not supported when translating to ${converseTarget}.`);
  rejectUnknownKeys(tool, new Set(["type", "function"]), param, converseTarget);
  const functionParam = joinParam(param, "function");
  const definition = expectObject(tool.function, functionParam);
  rejectUnknownKeys(definition, new Set(["name", "description", "parameters", "strict"]), functionParam, converseTarget);
  rejectStrict(definition.strict, joinParam(functionParam, "strict"));
  const spec: JsonObject = { name: expectString(definition.name, joinParam(functionParam, "name")) };
  if (present(definition.description) !== undefined) spec.description = expectString(definition.description, joinParam(functionParam, "description"));
  const parameters = present(definition.parameters) === undefined ? { type: "object", properties: {} } : expectObject(definition.parameters, joinParam(functionParam, "parameters"));
  spec.inputSchema = { json: parameters };
  return { toolSpec: spec };
}

function rejectStrict(value: unknown, param: string): void {
  if (present(value) !== undefined && expectBoolean(value, param)) {
    throw unsupportedFeature(param, `'${param}: true' is not supported when translating to ${converseTarget}: Bedrock does not enforce a tool's schema.`);
  }
}

function convertToolChoice(choice: unknown): JsonObject | "none" {
  if (choice === "auto") return { auto: {} };
  if (choice === "required") return { any: {} };
  if (choice === "none") return "none";
  if (isJsonObject(choice) && choice.type === "function") {
    rejectUnknownKeys(choice, new Set(["type", "function"]), "tool_choice", converseTarget);
    const choiceFunction = expectObject(choice.function, "tool_choice.function");
    return { tool: { name: expectString(choiceFunction.name, "tool_choice.function.name") } };
  }
  throw unsupportedFeature("tool_choice", `'tool_choice' must be "auto", "none", "required" or {type:"function", function:{name}} when translating to ${converseTarget}.`);
}

function convertResponseFormat(rawFormat: unknown): { name: string; spec: JsonObject } | undefined {
  const format = expectObject(rawFormat, "response_format");
  if (format.type === "text") return undefined;
  if (format.type === "json_object") {
    rejectUnknownKeys(format, new Set(["type"]), "response_format", converseTarget);
    return {
      name: JSON_OBJECT_TOOL_NAME,
      spec: { name: JSON_OBJECT_TOOL_NAME, description: "Give your final answer as a JSON object by calling this tool.", inputSchema: { json: { type: "object" } } },
    };
  }
  if (format.type !== "json_schema") {
    throw unsupportedFeature("response_format.type", `'response_format.type' '${String(format.type)}' is not supported when translating to ${converseTarget}.`);
  }
  const schemaParam = "response_format.json_schema";
  const jsonSchema = expectObject(format.json_schema, schemaParam);
  rejectUnknownKeys(jsonSchema, new Set(["name", "description", "schema", "strict"]), schemaParam, converseTarget);
  rejectStrict(jsonSchema.strict, `${schemaParam}.strict`);
  const name = expectString(jsonSchema.name, `${schemaParam}.name`);
  const schema = present(jsonSchema.schema) === undefined ? { type: "object" } : expectObject(jsonSchema.schema, `${schemaParam}.schema`);
  if (schema.type !== "object") {
    throw unsupportedFeature(`${schemaParam}.schema`, `A tool's input is a JSON object: the root of '${schemaParam}.schema' must have type "object" for ${converseTarget}.`);
  }
  const description = present(jsonSchema.description) === undefined ? "Give your final answer as JSON matching this schema by calling this tool." : expectString(jsonSchema.description, `${schemaParam}.description`);
  return { name, spec: { name, description, inputSchema: { json: schema } } };
}

/** `user` and `metadata` as Converse `requestMetadata` (string pairs kept in invocation logs). */
function convertRequestMetadata(request: ChatRequest): Record<string, string> | undefined {
  const metadata: Record<string, string> = {};
  if (present(request.metadata) !== undefined) {
    for (const [key, value] of Object.entries(expectObject(request.metadata, "metadata"))) metadata[key] = expectString(value, joinParam("metadata", key));
  }
  if (present(request.user) !== undefined) metadata.user = expectString(request.user, "user");
  return Object.keys(metadata).length === 0 ? undefined : metadata;
}
