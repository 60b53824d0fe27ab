import type { JsonObject } from "@gateway/contracts";
import type { ChatRequest } from "../../chat-request.js";
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
} from "../../formats/request-guards.js";
import { convertChatMessagesToGemini } from "./convert-chat-messages-to-gemini.js";
import { convertJsonSchemaToGemini } from "./convert-json-schema-to-gemini.js";

const target = "Gemini";

/** Fields Gemini represents (or that change nothing upstream: `stream`, `stream_options`, `user`). */
const supportedKeys = new Set([
  "model", "messages", "stream", "stream_options", "max_tokens", "max_completion_tokens", "temperature", "top_p", "stop", "n",
  "seed", "presence_penalty", "frequency_penalty", "logprobs", "top_logprobs", "tools", "tool_choice", "parallel_tool_calls",
  "response_format", "reasoning_effort", "user", "safety_identifier",
]);

/** Known fields Gemini cannot represent: `null` and the listed no-op values are accepted, anything else refused. */
const unrepresentableKeys: ReadonlyMap<string, (value: unknown) => boolean> = new Map<string, (value: unknown) => boolean>([
  ["store", (value) => value === false],
  ["metadata", (value) => isJsonObject(value) && Object.keys(value).length === 0],
  ["logit_bias", (value) => isJsonObject(value) && Object.keys(value).length === 0],
  ["modalities", (value) => Array.isArray(value) && value.length === 1 && value[0] === "text"],
  ["service_tier", (value) => value === "auto"],
]);

/**
 * `thinkingConfig.thinkingBudget` of each `reasoning_effort` (the budgets Google's own OpenAI
 * compatibility layer uses); `none` and `minimal` turn thinking off (models that cannot, such
 * as gemini-2.5-pro, answer 400).
 */
const thinkingBudgets: Readonly<Record<string, number>> = { none: 0, minimal: 0, low: 1024, medium: 8192, high: 24_576 };

/**
 * Converts the neutral chat request into a Gemini `generateContent` body (the model goes in the
 * URL): the conversation (see `convertChatMessagesToGemini`); `tools` as `functionDeclarations`
 * with `parametersJsonSchema` (see `convertJsonSchemaToGemini`); `tool_choice` as
 * `toolConfig.functionCallingConfig` (none -> NONE, auto -> AUTO, required -> ANY, a named
 * function -> ANY with `allowedFunctionNames`); `generationConfig` from `max_completion_tokens`
 * / `max_tokens` (`maxOutputTokens`), `temperature`, `top_p`, `stop` (`stopSequences`, at most
 * 5), `n` (`candidateCount`), `seed`, the penalties, `logprobs` / `top_logprobs`
 * (`responseLogprobs` / `logprobs`), `response_format` (`responseMimeType: application/json`,
 * with `responseJsonSchema`) and `reasoning_effort` (`thinkingConfig.thinkingBudget`). Fields
 * Gemini cannot represent throw `unsupported_feature` naming the field (`parallel_tool_calls:
 * false`: Gemini may always call several functions); malformed values `invalid_request`.
 */
export function convertChatRequestToGemini(request: ChatRequest): JsonObject {
  const body = request as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    if (supportedKeys.has(key) || value === null) continue;
    const isNoOp = unrepresentableKeys.get(key);
    if (isNoOp !== undefined && isNoOp(value)) continue;
    throw unsupportedFeature(key, isNoOp === undefined ? `Unknown field '${key}' is not supported when translating to Gemini.` : `'${key}' is not supported when translating to Gemini.`);
  }
  const { systemInstruction, contents } = convertChatMessagesToGemini(expectArray(body.messages, "messages"));
  if (contents.length === 0) throw invalidRequest("messages", "Gemini needs at least one user or assistant message besides the system instructions.");
  const result: JsonObject = { contents: contents as unknown as JsonObject[] };
  if (systemInstruction !== undefined) result.systemInstruction = systemInstruction;

  if (present(body.tools) !== undefined) {
    const declarations = expectArray(body.tools, "tools").map((tool, index) => convertTool(tool, `tools[${index}]`));
    if (declarations.length > 0) result.tools = [{ functionDeclarations: declarations }];
  }
  if (present(body.tool_choice) !== undefined) result.toolConfig = { functionCallingConfig: convertToolChoice(body.tool_choice) };
  if (present(body.parallel_tool_calls) !== undefined && !expectBoolean(body.parallel_tool_calls, "parallel_tool_calls")) {
    throw unsupportedFeature("parallel_tool_calls", "'parallel_tool_calls: false' cannot be represented by Gemini (it may call several functions in one answer).");
  }

  const generationConfig = convertGenerationConfig(body);
  if (Object.keys(generationConfig).length > 0) result.generationConfig = generationConfig;
  return result;
}

function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

function convertTool(rawTool: unknown, param: string): JsonObject {
  const tool = expectObject(rawTool, param);
  if (tool.type !== "function") throw unsupportedFeature(joinParam(param, "type"), `Tool type '${String(tool.type)}' is not supported when translating to Gemini.`);
  rejectUnknownKeys(tool, new Set(["type", "function"]), param, target);
  const functionParam = joinParam(param, "function");
  const definition = expectObject(tool.function, functionParam);
  rejectUnknownKeys(definition, new Set(["name", "description", "parameters", "strict"]), functionParam, target);
  const declaration: JsonObject = { name: expectString(definition.name, joinParam(functionParam, "name")) };
  if (present(definition.description) !== undefined) declaration.description = expectString(definition.description, joinParam(functionParam, "description"));
  const strict = present(definition.strict) !== undefined && expectBoolean(definition.strict, joinParam(functionParam, "strict"));
  if (present(definition.parameters) !== undefined) {
    const parametersParam = joinParam(functionParam, "parameters");
    declaration.parametersJsonSchema = convertJsonSchemaToGemini(expectObject(definition.parameters, parametersParam), parametersParam, strict);
  }
  return declaration;
}

function convertToolChoice(choice: unknown): JsonObject {
  if (choice === "none") return { mode: "NONE" };
  if (choice === "auto") return { mode: "AUTO" };
  if (choice === "required") return { mode: "ANY" };
  const named = expectObject(choice, "tool_choice");
  rejectUnknownKeys(named, new Set(["type", "function"]), "tool_choice", target);
  if (named.type !== "function") throw unsupportedFeature("tool_choice.type", `Tool choice type '${String(named.type)}' is not supported when translating to Gemini.`);
  const fn = expectObject(named.function, "tool_choice.function");
  return { mode: "ANY", allowedFunctionNames: [expectString(fn.name, "tool_choice.function.name")] };
}

function convertGenerationConfig(body: Record<string, unknown>): JsonObject {
  const config: JsonObject = {};
  if (present(body.max_completion_tokens) !== undefined) config.maxOutputTokens = expectPositiveInteger(body.max_completion_tokens, "max_completion_tokens");
  else if (present(body.max_tokens) !== undefined) config.maxOutputTokens = expectPositiveInteger(body.max_tokens, "max_tokens");
  if (present(body.temperature) !== undefined) config.temperature = expectNumber(body.temperature, "temperature");
  if (present(body.top_p) !== undefined) config.topP = expectNumber(body.top_p, "top_p");
  if (present(body.stop) !== undefined) {
    const stops = typeof body.stop === "string" ? [body.stop] : expectArray(body.stop, "stop").map((stop, index) => expectString(stop, `stop[${index}]`));
    if (stops.length > 5) throw unsupportedFeature("stop", "Gemini takes at most 5 stop sequences.");
    if (stops.length > 0) config.stopSequences = stops;
  }
  if (present(body.n) !== undefined) {
    const count = expectPositiveInteger(body.n, "n");
    if (count > 1) config.candidateCount = count;
  }
  if (present(body.seed) !== undefined) {
    const seed = expectNumber(body.seed, "seed");
    if (!Number.isInteger(seed)) throw invalidRequest("seed", "'seed' must be an integer.");
    config.seed = seed;
  }
  if (present(body.presence_penalty) !== undefined && expectNumber(body.presence_penalty, "presence_penalty") !== 0) config.presencePenalty = body.presence_penalty;
  if (present(body.frequency_penalty) !== undefined && expectNumber(body.frequency_penalty, "frequency_penalty") !== 0) config.frequencyPenalty = body.frequency_penalty;
  const logprobs = present(body.logprobs) !== undefined && expectBoolean(body.logprobs, "logprobs");
  if (present(body.top_logprobs) !== undefined) {
    const top = expectNumber(body.top_logprobs, "top_logprobs");
    if (!logprobs) throw invalidRequest("top_logprobs", "'top_logprobs' needs 'logprobs: true'.");
    if (!Number.isInteger(top) || top < 0 || top > 20) throw invalidRequest("top_logprobs", "'top_logprobs' must be an integer from 0 to 20.");
    config.logprobs = top;
  }
  if (logprobs) config.responseLogprobs = true;
  if (present(body.response_format) !== undefined) Object.assign(config, convertResponseFormat(body.response_format));
  if (present(body.reasoning_effort) !== undefined) {
    const effort = expectString(body.reasoning_effort, "reasoning_effort");
    if (!Object.hasOwn(thinkingBudgets, effort)) throw unsupportedFeature("reasoning_effort", `'reasoning_effort: ${effort}' has no Gemini thinking budget (none, minimal, low, medium, high).`);
    config.thinkingConfig = { thinkingBudget: thinkingBudgets[effort]! };
  }
  return config;
}

function convertResponseFormat(value: unknown): JsonObject {
  const format = expectObject(value, "response_format");
  if (format.type === "text") return {};
  if (format.type === "json_object") return { responseMimeType: "application/json" };
  if (format.type !== "json_schema") throw unsupportedFeature("response_format.type", `'response_format.type: ${String(format.type)}' is not supported when translating to Gemini.`);
  rejectUnknownKeys(format, new Set(["type", "json_schema"]), "response_format", target);
  const definition = expectObject(format.json_schema, "response_format.json_schema");
  rejectUnknownKeys(definition, new Set(["name", "description", "schema", "strict"]), "response_format.json_schema", target);
  const schema = present(definition.schema);
  if (schema === undefined) return { responseMimeType: "application/json" };
  const strict = present(definition.strict) !== undefined && expectBoolean(definition.strict, "response_format.json_schema.strict");
  const converted = convertJsonSchemaToGemini(expectObject(schema, "response_format.json_schema.schema"), "response_format.json_schema.schema", strict);
  if (present(definition.description) !== undefined && converted.description === undefined) {
    converted.description = expectString(definition.description, "response_format.json_schema.description");
  }
  return { responseMimeType: "application/json", responseJsonSchema: converted };
}
