import type { JsonObject } from "@gateway/contracts";
import {
  expectArray,
  expectCacheControl,
  expectObject,
  expectString,
  invalidRequest,
  joinParam,
  parseToolArguments,
  rejectUnknownKeys,
  unsupportedFeature,
} from "../../formats/request-guards.js";

/** The name translation errors give the target. */
export const converseTarget = "Bedrock Converse";

/** Converse `system` blocks and `messages` (roles alternate; consecutive turns of one role merged). */
export interface ConverseConversation {
  system: JsonObject[];
  messages: { role: "user" | "assistant"; content: JsonObject[] }[];
  /** Whether any message holds a tool use or tool result (Converse then requires a `toolConfig`). */
  hasToolBlocks: boolean;
}

const imageFormats: Readonly<Record<string, string>> = { "image/png": "png", "image/jpeg": "jpeg", "image/jpg": "jpeg", "image/gif": "gif", "image/webp": "webp" };

/**
 * Converts chat completions messages into Converse's `system` and `messages`: system and
 * developer text become system blocks; user text and base64 images (`data:` URLs; Converse takes
 * no image URLs) become text and image blocks; assistant text and tool calls become text and
 * `toolUse` blocks; tool messages become `toolResult` blocks of a user turn. A `cache_control`
 * (from a messages caller) becomes a `cachePoint` after its block. Anything else is refused
 * with `unsupported_feature` naming the field.
 */
export function convertChatMessagesToConverse(rawMessages: unknown[]): ConverseConversation {
  const system: JsonObject[] = [];
  const messages: ConverseConversation["messages"] = [];
  let hasToolBlocks = false;
  const append = (role: "user" | "assistant", content: JsonObject[]): void => {
    const last = messages.at(-1);
    if (last !== undefined && last.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };

  rawMessages.forEach((rawMessage, index) => {
    const param = `messages[${index}]`;
    const message = expectObject(rawMessage, param);
    const contentParam = joinParam(param, "content");
    switch (message.role) {
      case "system":
      case "developer":
        rejectUnknownKeys(message, new Set(["role", "content", "cache_control"]), param, converseTarget);
        system.push(...withCachePoint(textBlocks(message.content, contentParam), message, param));
        return;
      case "user": {
        rejectUnknownKeys(message, new Set(["role", "content", "cache_control"]), param, converseTarget);
        const blocks =
          typeof message.content === "string"
            ? [{ text: message.content }]
            : expectArray(message.content, contentParam).flatMap((part, partIndex) => userBlocks(part, joinParam(contentParam, partIndex)));
        append("user", withCachePoint(blocks, message, param));
        return;
      }
      case "assistant": {
        const blocks = assistantBlocks(message, param);
        if (blocks.some((block) => block.toolUse !== undefined)) hasToolBlocks = true;
        if (blocks.length > 0) append("assistant", withCachePoint(blocks, message, param));
        return;
      }
      case "tool": {
        rejectUnknownKeys(message, new Set(["role", "tool_call_id", "content", "cache_control"]), param, converseTarget);
        hasToolBlocks = true;
        const content = typeof message.content === "string" ? [{ text: message.content }] : textBlocks(message.content, contentParam);
        const block = { toolResult: { toolUseId: expectString(message.tool_call_id, joinParam(param, "tool_call_id")), content } };
        append("user", withCachePoint([block], message, param));
        return;
      }
      default:
        throw unsupportedFeature(joinParam(param, "role"), `Message role '${String(message.role)}' is not supported when translating to ${converseTarget}.`);
    }
  });
  return { system, messages, hasToolBlocks };
}

/** A `cachePoint` after the blocks when the message (or its last part) asks for a cache breakpoint. */
function withCachePoint(blocks: JsonObject[], message: JsonObject, param: string): JsonObject[] {
  if (message.cache_control === undefined || message.cache_control === null) return blocks;
  return [...blocks, cachePoint(message.cache_control, joinParam(param, "cache_control"))];
}

function cachePoint(value: unknown, param: string): JsonObject {
  const cacheControl = expectCacheControl(value, param);
  if (cacheControl.ttl !== undefined && cacheControl.ttl !== "5m") {
    throw unsupportedFeature(joinParam(param, "ttl"), `'${joinParam(param, "ttl")}' other than "5m" is not supported when translating to ${converseTarget}.`);
  }
  return { cachePoint: { type: "default" } };
}

function textBlocks(content: unknown, param: string): JsonObject[] {
  if (typeof content === "string") return [{ text: content }];
  return expectArray(content, param).flatMap((rawPart, partIndex) => {
    const partParam = joinParam(param, partIndex);
    const part = expectObject(rawPart, partParam);
    if (part.type !== "text") {
      throw unsupportedFeature(joinParam(partParam, "type"), `Content part type '${String(part.type)}' is not supported here when translating to ${converseTarget}.`);
    }
    return textPart(part, partParam);
  });
}

function textPart(part: JsonObject, param: string): JsonObject[] {
  rejectUnknownKeys(part, new Set(["type", "text", "cache_control"]), param, converseTarget);
  const block = { text: expectString(part.text, joinParam(param, "text")) };
  if (part.cache_control === undefined || part.cache_control === null) return [block];
  return [block, cachePoint(part.cache_control, joinParam(param, "cache_control"))];
}

function userBlocks(rawPart: unknown, param: string): JsonObject[] {
  const part = expectObject(rawPart, param);
  if (part.type === "text") return textPart(part, param);
  if (part.type !== "image_url") {
    throw unsupportedFeature(joinParam(param, "type"), `Content part type '${String(part.type)}' is not supported when translating to ${converseTarget}.`);
  }
  rejectUnknownKeys(part, new Set(["type", "image_url", "cache_control"]), param, converseTarget);
  const imageParam = joinParam(param, "image_url");
  const image = expectObject(part.image_url, imageParam);
  rejectUnknownKeys(image, new Set(["url", "detail"]), imageParam, converseTarget);
  if (image.detail !== undefined && image.detail !== null && image.detail !== "auto") {
    throw unsupportedFeature(joinParam(imageParam, "detail"), `'${joinParam(imageParam, "detail")}' can only be "auto" when translating to ${converseTarget}.`);
  }
  const urlParam = joinParam(imageParam, "url");
  const url = expectString(image.url, urlParam);
  const match = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (match === null) {
    if (/^https?:\/\//i.test(url)) throw unsupportedFeature(urlParam, `Image URLs are not supported by ${converseTarget}: send the image as a base64 data URL.`);
    throw invalidRequest(urlParam, `'${urlParam}' must be a base64 data URL or an http(s) URL.`);
  }
  const format = imageFormats[match[1]!.toLowerCase()];
  if (format === undefined || !(match[2] ?? "").split(";").includes("base64")) {
    throw unsupportedFeature(urlParam, `'${urlParam}' must be a base64 data URL of a png, jpeg, gif or webp image for ${converseTarget}.`);
  }
  const block = { image: { format, source: { bytes: match[3] ?? "" } } };
  if (part.cache_control === undefined || part.cache_control === null) return [block];
  return [block, cachePoint(part.cache_control, joinParam(param, "cache_control"))];
}

function assistantBlocks(message: JsonObject, param: string): JsonObject[] {
  rejectUnknownKeys(message, new Set(["role", "content", "tool_calls", "refusal", "cache_control", "name"]), param, converseTarget);
  if (message.name !== undefined && message.name !== null) {
    throw unsupportedFeature(joinParam(param, "name"), `'${joinParam(param, "name")}' is not supported when translating to ${converseTarget}.`);
  }
  const blocks: JsonObject[] = [];
  const contentParam = joinParam(param, "content");
  if (typeof message.content === "string") {
    if (message.content !== "") blocks.push({ text: message.content });
  } else if (message.content !== undefined && message.content !== null) {
    expectArray(message.content, contentParam).forEach((rawPart, partIndex) => {
      const partParam = joinParam(contentParam, partIndex);
      const part = expectObject(rawPart, partParam);
      if (part.type === "refusal") blocks.push({ text: expectString(part.refusal, joinParam(partParam, "refusal")) });
      else blocks.push(...textPart(part.type === "text" ? part : rejectPart(part, partParam), partParam).filter((block) => block.text !== ""));
    });
  }
  if (typeof message.refusal === "string" && message.refusal !== "") blocks.push({ text: message.refusal });
  const toolCallsParam = joinParam(param, "tool_calls");
  const toolCalls = message.tool_calls === undefined || message.tool_calls === null ? [] : expectArray(message.tool_calls, toolCallsParam);
  toolCalls.forEach((rawCall, callIndex) => {
    const callParam = joinParam(toolCallsParam, callIndex);
    const call = expectObject(rawCall, callParam);
    rejectUnknownKeys(call, new Set(["id", "type", "function"]), callParam, converseTarget);
    if (call.type !== "function") {
      throw unsupportedFeature(joinParam(callParam, "type"), `Tool call type '${String(call.type)}' is not supported when translating to ${converseTarget}.`);
    }
    const functionParam = joinParam(callParam, "function");
    const callFunction = expectObject(call.function, functionParam);
    rejectUnknownKeys(callFunction, new Set(["name", "arguments"]), functionParam, converseTarget);
    blocks.push({
      toolUse: {
        toolUseId: expectString(call.id, joinParam(callParam, "id")),
        name: expectString(callFunction.name, joinParam(functionParam, "name")),
        input: parseToolArguments(expectString(callFunction.arguments, joinParam(functionParam, "arguments")), joinParam(functionParam, "arguments")),
      },
    });
  });
  return blocks;
}

function rejectPart(part: JsonObject, param: string): never {
  throw unsupportedFeature(joinParam(param, "type"), `Assistant content part type '${String(part.type)}' is not supported when translating to ${converseTarget}.`);
}
