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

/** Options of {@link convertResponsesRequestToChat}. */
export interface ConvertResponsesRequestToChatOptions {
  /** Upstream model name; replaces the request's `model`. */
  model: string;
  /**
   * Where the chat request goes: `openai` (an OpenAI-compatible chat server) or `anthropic` (it is
   * translated on to Anthropic messages, which cannot represent `reasoning`, `text.verbosity`,
   * `service_tier` or `prompt_cache_key`: those are refused here, by their Responses names).
   */
  target: "openai" | "anthropic";
}

/** Fields the gateway itself handles before the translation (never sent upstream). */
const gatewayFields = new Set(["previous_response_id", "store", "metadata"]);

const supportedKeys = new Set([
  "model",
  "input",
  "instructions",
  "max_output_tokens",
  "temperature",
  "top_p",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "text",
  "reasoning",
  "stream",
  "stream_options",
  "user",
  "safety_identifier",
  "prompt_cache_key",
  "service_tier",
]);

/** Known Responses fields chat completions cannot represent: accepted only with the value that changes nothing. */
const unrepresentableKeys: ReadonlyMap<string, (value: unknown) => boolean> = new Map<string, (value: unknown) => boolean>([
  ["include", (value) => Array.isArray(value) && value.length === 0],
  ["truncation", (value) => value === "disabled"],
  ["background", (value) => value === false],
  ["top_logprobs", (value) => value === 0],
  ["max_tool_calls", () => false],
  ["conversation", () => false],
  ["prompt", () => false],
  ["prompt_cache_retention", () => false],
  ["prompt_cache_options", () => false],
  ["context_management", () => false],
  ["moderation", () => false],
]);

/**
 * Converts an OpenAI Responses request into an OpenAI chat completions request, for connections
 * that serve only chat completions (and, through `convertChatRequestToAnthropic`, for Anthropic
 * ones). Supported: `instructions` (a leading system message), `input` as a string or items
 * (messages with `input_text` / `input_image` / `output_text` / `refusal` parts, `function_call`
 * and `function_call_output` items; `reasoning` items are dropped: another model cannot use
 * them), function `tools`, `tool_choice`, `parallel_tool_calls`, `max_output_tokens`,
 * `temperature`, `top_p`, `text.format` (`text`, `json_object`, `json_schema`),
 * `text.verbosity`, `reasoning.effort`, `user`, `safety_identifier`, `prompt_cache_key`,
 * `service_tier` and `stream`. `store`, `previous_response_id` and `metadata` are the gateway's
 * (never sent). Anything else, or a value the target cannot represent, throws
 * `unsupported_feature` naming the Responses field; malformed values throw `invalid_request`.
 */
export function convertResponsesRequestToChat(body: JsonObject, options: ConvertResponsesRequestToChatOptions): JsonObject {
  const target = options.target === "anthropic" ? "Anthropic" : "chat completions";
  for (const [key, value] of Object.entries(body)) {
    if (supportedKeys.has(key) || gatewayFields.has(key)) continue;
    const isNoOp = unrepresentableKeys.get(key);
    if (isNoOp !== undefined) {
      if (value === null || isNoOp(value)) continue;
      throw unsupportedFeature(key, `'${key}' is not supported when translating the Responses API to ${target}.`);
    }
    throw unsupportedFeature(key, `Unknown field '${key}' is not supported when translating the Responses API to ${target}.`);
  }
  const anthropic = options.target === "anthropic";
  const result: JsonObject = { model: options.model };
  const messages: JsonObject[] = [];
  if (present(body.instructions) !== undefined) messages.push({ role: "system", content: expectString(body.instructions, "instructions") });
  if (typeof body.input === "string") messages.push({ role: "user", content: body.input });
  else if (present(body.input) !== undefined) convertInputItems(expectArray(body.input, "input"), messages, target);
  else throw invalidRequest("input", "'input' is required when translating the Responses API.");
  result.messages = messages;

  if (present(body.max_output_tokens) !== undefined) result.max_completion_tokens = expectPositiveInteger(body.max_output_tokens, "max_output_tokens");
  if (present(body.temperature) !== undefined) result.temperature = expectNumber(body.temperature, "temperature");
  if (present(body.top_p) !== undefined) result.top_p = expectNumber(body.top_p, "top_p");
  if (present(body.tools) !== undefined) {
    const tools = convertTools(expectArray(body.tools, "tools"), target);
    if (tools.length > 0) result.tools = tools;
  }
  if (present(body.tool_choice) !== undefined) result.tool_choice = convertToolChoice(body.tool_choice, target);
  if (present(body.parallel_tool_calls) !== undefined) result.parallel_tool_calls = expectBoolean(body.parallel_tool_calls, "parallel_tool_calls");
  if (present(body.text) !== undefined) convertText(expectObject(body.text, "text"), result, anthropic, target);
  if (present(body.reasoning) !== undefined) convertReasoning(expectObject(body.reasoning, "reasoning"), result, anthropic, target);
  for (const key of ["user", "safety_identifier"] as const) {
    if (present(body[key]) !== undefined) result[key] = expectString(body[key], key);
  }
  if (present(body.prompt_cache_key) !== undefined) {
    if (anthropic) throw unsupportedFeature("prompt_cache_key", `'prompt_cache_key' is not supported when translating the Responses API to ${target}.`);
    result.prompt_cache_key = expectString(body.prompt_cache_key, "prompt_cache_key");
  }
  if (present(body.service_tier) !== undefined && body.service_tier !== "auto") {
    if (anthropic) throw unsupportedFeature("service_tier", `'service_tier' is not supported when translating the Responses API to ${target}.`);
    result.service_tier = expectString(body.service_tier, "service_tier");
  }
  if (present(body.stream) !== undefined) result.stream = expectBoolean(body.stream, "stream");
  if (present(body.stream_options) !== undefined) {
    const streamOptions = expectObject(body.stream_options, "stream_options");
    rejectUnknownKeys(streamOptions, new Set(["include_obfuscation"]), "stream_options", target);
    if (streamOptions.include_obfuscation === true) {
      throw unsupportedFeature("stream_options.include_obfuscation", `'stream_options.include_obfuscation' is not supported when translating the Responses API to ${target}.`);
    }
  }
  return result;
}

function present(value: unknown): unknown {
  return value === null ? undefined : value;
}

function convertInputItems(items: unknown[], messages: JsonObject[], target: string): void {
  // The assistant turn that collects function calls (and the text before them) of one model turn.
  let assistant: JsonObject | null = null;
  items.forEach((rawItem, index) => {
    const param = `input[${index}]`;
    const item = expectObject(rawItem, param);
    const type = item.type ?? (item.role === undefined ? undefined : "message");
    switch (type) {
      case "message": {
        const role = item.role;
        if (role === "assistant") {
          rejectUnknownKeys(item, new Set(["type", "id", "role", "content", "status", "phase"]), param, target);
          const { text, refusal } = convertAssistantContent(item.content, joinParam(param, "content"), target);
          assistant = { role: "assistant", content: text };
          if (refusal !== null) assistant.refusal = refusal;
          messages.push(assistant);
          return;
        }
        assistant = null;
        rejectUnknownKeys(item, new Set(["type", "id", "role", "content", "status"]), param, target);
        if (role !== "user" && role !== "system" && role !== "developer") {
          throw unsupportedFeature(joinParam(param, "role"), `Message role '${String(role)}' is not supported when translating the Responses API to ${target}.`);
        }
        const contentParam = joinParam(param, "content");
        if (typeof item.content === "string") {
          messages.push({ role: role === "developer" ? "system" : role, content: item.content });
          return;
        }
        const parts = expectArray(item.content, contentParam).map((part, partIndex) => convertInputPart(part, joinParam(contentParam, partIndex), target, role === "user"));
        messages.push({ role: role === "developer" ? "system" : role, content: parts });
        return;
      }
      case "function_call": {
        rejectUnknownKeys(item, new Set(["type", "id", "call_id", "name", "arguments", "status"]), param, target);
        const call = {
          id: expectString(item.call_id, joinParam(param, "call_id")),
          type: "function",
          function: { name: expectString(item.name, joinParam(param, "name")), arguments: expectString(item.arguments, joinParam(param, "arguments")) },
        };
        if (assistant === null || messages.at(-1) !== assistant) {
          assistant = { role: "assistant", content: null };
          messages.push(assistant);
        }
        assistant.tool_calls = [...((assistant.tool_calls as JsonObject[] | undefined) ?? []), call];
        return;
      }
      case "function_call_output": {
        assistant = null;
        rejectUnknownKeys(item, new Set(["type", "id", "call_id", "output", "status"]), param, target);
        const outputParam = joinParam(param, "output");
        const output =
          typeof item.output === "string"
            ? item.output
            : expectArray(item.output, outputParam).map((part, partIndex) => convertInputPart(part, joinParam(outputParam, partIndex), target, false));
        messages.push({ role: "tool", tool_call_id: expectString(item.call_id, joinParam(param, "call_id")), content: output });
        return;
      }
      case "reasoning":
        // Reasoning of an earlier turn (another model's, or encrypted): a chat model cannot use it.
        return;
      default:
        throw unsupportedFeature(joinParam(param, "type"), `Input item type '${String(type)}' is not supported when translating the Responses API to ${target}.`);
    }
  });
}

function convertAssistantContent(content: unknown, param: string, target: string): { text: string | null; refusal: string | null } {
  if (typeof content === "string") return { text: content, refusal: null };
  let text: string | null = null;
  let refusal: string | null = null;
  expectArray(content, param).forEach((rawPart, index) => {
    const partParam = joinParam(param, index);
    const part = expectObject(rawPart, partParam);
    if (part.type === "output_text" || part.type === "input_text") {
      rejectUnknownKeys(part, new Set(["type", "text", "annotations", "logprobs"]), partParam, target);
      text = (text ?? "") + expectString(part.text, joinParam(partParam, "text"));
    } else if (part.type === "refusal") {
      rejectUnknownKeys(part, new Set(["type", "refusal"]), partParam, target);
      refusal = (refusal ?? "") + expectString(part.refusal, joinParam(partParam, "refusal"));
    } else {
      throw unsupportedFeature(joinParam(partParam, "type"), `Assistant content type '${String(part.type)}' is not supported when translating the Responses API to ${target}.`);
    }
  });
  return { text, refusal };
}

function convertInputPart(rawPart: unknown, param: string, target: string, imagesAllowed: boolean): JsonObject {
  const part = expectObject(rawPart, param);
  if (part.type === "input_text" || part.type === "output_text") {
    rejectUnknownKeys(part, new Set(["type", "text", "annotations", "logprobs"]), param, target);
    return { type: "text", text: expectString(part.text, joinParam(param, "text")) };
  }
  if (part.type === "input_image" && imagesAllowed) {
    rejectUnknownKeys(part, new Set(["type", "image_url", "detail", "file_id"]), param, target);
    if (present(part.file_id) !== undefined) {
      throw unsupportedFeature(joinParam(param, "file_id"), `'${joinParam(param, "file_id")}' (an OpenAI file) is not supported when translating the Responses API to ${target}.`);
    }
    const imageUrl: JsonObject = { url: expectString(part.image_url, joinParam(param, "image_url")) };
    if (present(part.detail) !== undefined) imageUrl.detail = expectString(part.detail, joinParam(param, "detail"));
    return { type: "image_url", image_url: imageUrl };
  }
  throw unsupportedFeature(joinParam(param, "type"), `Content type '${String(part.type)}' is not supported here when translating the Responses API to ${target}.`);
}

function convertTools(rawTools: unknown[], target: string): JsonObject[] {
  return rawTools.map((rawTool, index) => {
    const param = `tools[${index}]`;
    const tool = expectObject(rawTool, param);
    if (tool.type !== "function") {
      throw unsupportedFeature(joinParam(param, "type"), `Tool type '${String(tool.type)}' is not supported when translating the Responses API to ${target}.`);
    }
    rejectUnknownKeys(tool, new Set(["type", "name", "description", "parameters", "strict"]), param, target);
    const definition: JsonObject = { name: expectString(tool.name, joinParam(param, "name")) };
    if (present(tool.description) !== undefined) definition.description = expectString(tool.description, joinParam(param, "description"));
    if (present(tool.parameters) !== undefined) definition.parameters = expectObject(tool.parameters, joinParam(param, "parameters"));
    if (present(tool.strict) !== undefined) definition.strict = expectBoolean(tool.strict, joinParam(param, "strict"));
    return { type: "function", function: definition };
  });
}

function convertToolChoice(toolChoice: unknown, target: string): unknown {
  if (toolChoice === "auto" || toolChoice === "none" || toolChoice === "required") return toolChoice;
  if (isJsonObject(toolChoice) && toolChoice.type === "function") {
    rejectUnknownKeys(toolChoice, new Set(["type", "name"]), "tool_choice", target);
    return { type: "function", function: { name: expectString(toolChoice.name, "tool_choice.name") } };
  }
  throw unsupportedFeature("tool_choice", `'tool_choice' must be "auto", "none", "required" or {type:"function", name} when translating the Responses API to ${target}.`);
}

function convertText(text: JsonObject, result: JsonObject, anthropic: boolean, target: string): void {
  rejectUnknownKeys(text, new Set(["format", "verbosity"]), "text", target);
  if (present(text.format) !== undefined) {
    const format = expectObject(text.format, "text.format");
    if (format.type === "text") rejectUnknownKeys(format, new Set(["type"]), "text.format", target);
    else if (format.type === "json_object") {
      rejectUnknownKeys(format, new Set(["type"]), "text.format", target);
      result.response_format = { type: "json_object" };
    } else if (format.type === "json_schema") {
      rejectUnknownKeys(format, new Set(["type", "name", "schema", "description", "strict"]), "text.format", target);
      const jsonSchema: JsonObject = { name: expectString(format.name, "text.format.name"), schema: expectObject(format.schema, "text.format.schema") };
      if (present(format.description) !== undefined) jsonSchema.description = expectString(format.description, "text.format.description");
      if (present(format.strict) !== undefined) jsonSchema.strict = expectBoolean(format.strict, "text.format.strict");
      result.response_format = { type: "json_schema", json_schema: jsonSchema };
    } else {
      throw unsupportedFeature("text.format.type", `'text.format.type' '${String(format.type)}' is not supported when translating the Responses API to ${target}.`);
    }
  }
  if (present(text.verbosity) !== undefined && text.verbosity !== "medium") {
    if (anthropic) throw unsupportedFeature("text.verbosity", `'text.verbosity' is not supported when translating the Responses API to ${target}.`);
    result.verbosity = expectString(text.verbosity, "text.verbosity");
  }
}

function convertReasoning(reasoning: JsonObject, result: JsonObject, anthropic: boolean, target: string): void {
  rejectUnknownKeys(reasoning, new Set(["effort", "summary", "generate_summary"]), "reasoning", target);
  for (const key of ["summary", "generate_summary"]) {
    if (present(reasoning[key]) !== undefined) {
      throw unsupportedFeature(joinParam("reasoning", key), `'reasoning.${key}' is not supported when translating the Responses API to ${target} (chat completions return no reasoning summary).`);
    }
  }
  if (present(reasoning.effort) === undefined) return;
  if (anthropic) throw unsupportedFeature("reasoning.effort", `'reasoning.effort' is not supported when translating the Responses API to ${target}.`);
  result.reasoning_effort = expectString(reasoning.effort, "reasoning.effort");
}
