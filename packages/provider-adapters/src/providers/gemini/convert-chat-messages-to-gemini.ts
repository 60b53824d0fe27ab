import type { JsonObject } from "@gateway/contracts";
import {
  expectArray,
  expectObject,
  expectString,
  invalidRequest,
  joinParam,
  parseToolArguments,
  rejectUnknownKeys,
  unsupportedFeature,
} from "../../formats/request-guards.js";

const target = "Gemini";

/** A Gemini `Content`: a role and its parts. */
export interface GeminiContent {
  role: "user" | "model";
  parts: JsonObject[];
}

/** The conversation as Gemini takes it. */
export interface GeminiConversation {
  systemInstruction?: { parts: JsonObject[] };
  contents: GeminiContent[];
}

/**
 * Converts chat messages into Gemini's `systemInstruction` and `contents`: system and developer
 * messages become the system instruction (in order); user messages `user` contents with `text`
 * and `inlineData` parts (base64 data URLs of images, input audio, files given as data); assistant
 * messages `model` contents with `text` and `functionCall` parts; tool messages `user` contents
 * with `functionResponse` parts, named after the call they answer (`{result: <text>}`).
 * Consecutive contents of one role are merged (Gemini alternates roles). Reasoning an assistant
 * message carries back (`reasoning_content`) is not sent: Gemini takes thoughts back only with
 * its own signatures. Anything else (http image URLs, uploaded file ids, message `name`s)
 * throws `unsupported_feature` naming the field.
 */
export function convertChatMessagesToGemini(rawMessages: unknown[]): GeminiConversation {
  const systemParts: JsonObject[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();
  const push = (role: GeminiContent["role"], parts: JsonObject[]): void => {
    const last = contents.at(-1);
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  rawMessages.forEach((rawMessage, index) => {
    const param = `messages[${index}]`;
    const message = expectObject(rawMessage, param);
    switch (message.role) {
      case "system":
      case "developer":
        rejectUnknownKeys(message, new Set(["role", "content"]), param, target);
        systemParts.push(...textParts(message.content, joinParam(param, "content")));
        return;
      case "user":
        rejectUnknownKeys(message, new Set(["role", "content"]), param, target);
        push("user", userParts(message.content, joinParam(param, "content")));
        return;
      case "assistant":
        push("model", assistantParts(message, param, toolNames));
        return;
      case "tool": {
        rejectUnknownKeys(message, new Set(["role", "tool_call_id", "content"]), param, target);
        const callId = expectString(message.tool_call_id, joinParam(param, "tool_call_id"));
        const name = toolNames.get(callId);
        if (name === undefined) {
          throw invalidRequest(joinParam(param, "tool_call_id"), `'${joinParam(param, "tool_call_id")}' names no tool call of an earlier assistant message.`);
        }
        const text = textParts(message.content, joinParam(param, "content")).map((part) => String(part.text)).join("");
        push("user", [{ functionResponse: { name, response: { result: text } } }]);
        return;
      }
      default:
        throw unsupportedFeature(joinParam(param, "role"), `Message role '${String(message.role)}' is not supported when translating to Gemini.`);
    }
  });
  const conversation: GeminiConversation = { contents };
  if (systemParts.length > 0) conversation.systemInstruction = { parts: systemParts };
  return conversation;
}

/** String or text parts -> `{text}` parts. */
function textParts(content: unknown, param: string): JsonObject[] {
  if (typeof content === "string") return [{ text: content }];
  return expectArray(content, param).map((rawPart, partIndex) => {
    const partParam = joinParam(param, partIndex);
    const part = expectObject(rawPart, partParam);
    if (part.type !== "text") {
      throw unsupportedFeature(joinParam(partParam, "type"), `Content part type '${String(part.type)}' is not supported here when translating to Gemini.`);
    }
    rejectUnknownKeys(part, new Set(["type", "text"]), partParam, target);
    return { text: expectString(part.text, joinParam(partParam, "text")) };
  });
}

function userParts(content: unknown, param: string): JsonObject[] {
  if (typeof content === "string") return [{ text: content }];
  return expectArray(content, param).map((rawPart, partIndex) => {
    const partParam = joinParam(param, partIndex);
    const part = expectObject(rawPart, partParam);
    switch (part.type) {
      case "text":
        rejectUnknownKeys(part, new Set(["type", "text"]), partParam, target);
        return { text: expectString(part.text, joinParam(partParam, "text")) };
      case "image_url": {
        rejectUnknownKeys(part, new Set(["type", "image_url"]), partParam, target);
        const imageParam = joinParam(partParam, "image_url");
        const image = expectObject(part.image_url, imageParam);
        rejectUnknownKeys(image, new Set(["url", "detail"]), imageParam, target);
        if (image.detail !== undefined && image.detail !== null && image.detail !== "auto") {
          throw unsupportedFeature(joinParam(imageParam, "detail"), `'${joinParam(imageParam, "detail")}' can only be "auto" when translating to Gemini.`);
        }
        return inlineData(expectString(image.url, joinParam(imageParam, "url")), joinParam(imageParam, "url"));
      }
      case "input_audio": {
        rejectUnknownKeys(part, new Set(["type", "input_audio"]), partParam, target);
        const audioParam = joinParam(partParam, "input_audio");
        const audio = expectObject(part.input_audio, audioParam);
        rejectUnknownKeys(audio, new Set(["data", "format"]), audioParam, target);
        const format = expectString(audio.format, joinParam(audioParam, "format"));
        return { inlineData: { mimeType: `audio/${format === "mp3" ? "mp3" : format}`, data: expectString(audio.data, joinParam(audioParam, "data")) } };
      }
      case "file": {
        rejectUnknownKeys(part, new Set(["type", "file"]), partParam, target);
        const fileParam = joinParam(partParam, "file");
        const file = expectObject(part.file, fileParam);
        rejectUnknownKeys(file, new Set(["file_data", "filename"]), fileParam, target);
        return inlineData(expectString(file.file_data, joinParam(fileParam, "file_data")), joinParam(fileParam, "file_data"));
      }
      default:
        throw unsupportedFeature(joinParam(partParam, "type"), `Content part type '${String(part.type)}' is not supported when translating to Gemini.`);
    }
  });
}

/** A base64 data URL as an `inlineData` part; any other URL is refused (Gemini reads no http URLs inline). */
function inlineData(url: string, param: string): JsonObject {
  const match = /^data:([^;,]+)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (match === null || !(match[2] ?? "").split(";").includes("base64")) {
    throw unsupportedFeature(param, `'${param}' must be a base64 data URL (data:<media type>;base64,<data>) when translating to Gemini.`);
  }
  return { inlineData: { mimeType: match[1]!.toLowerCase(), data: match[3] ?? "" } };
}

function assistantParts(message: JsonObject, param: string, toolNames: Map<string, string>): JsonObject[] {
  rejectUnknownKeys(message, new Set(["role", "content", "tool_calls", "refusal", "reasoning_content"]), param, target);
  const parts: JsonObject[] = [];
  const content = message.content;
  if (typeof content === "string") {
    if (content !== "") parts.push({ text: content });
  } else if (content !== undefined && content !== null) {
    expectArray(content, joinParam(param, "content")).forEach((rawPart, partIndex) => {
      const partParam = joinParam(joinParam(param, "content"), partIndex);
      const part = expectObject(rawPart, partParam);
      if (part.type === "text") parts.push({ text: expectString(part.text, joinParam(partParam, "text")) });
      else if (part.type === "refusal") parts.push({ text: expectString(part.refusal, joinParam(partParam, "refusal")) });
      else throw unsupportedFeature(joinParam(partParam, "type"), `Assistant content part type '${String(part.type)}' is not supported when translating to Gemini.`);
    });
  }
  if (typeof message.refusal === "string" && message.refusal !== "") parts.push({ text: message.refusal });
  const calls = message.tool_calls === undefined || message.tool_calls === null ? [] : expectArray(message.tool_calls, joinParam(param, "tool_calls"));
  calls.forEach((rawCall, callIndex) => {
    const callParam = joinParam(joinParam(param, "tool_calls"), callIndex);
    const call = expectObject(rawCall, callParam);
    rejectUnknownKeys(call, new Set(["id", "type", "function"]), callParam, target);
    if (call.type !== "function") throw unsupportedFeature(joinParam(callParam, "type"), `Tool call type '${String(call.type)}' is not supported when translating to Gemini.`);
    const functionParam = joinParam(callParam, "function");
    const fn = expectObject(call.function, functionParam);
    rejectUnknownKeys(fn, new Set(["name", "arguments"]), functionParam, target);
    const name = expectString(fn.name, joinParam(functionParam, "name"));
    toolNames.set(expectString(call.id, joinParam(callParam, "id")), name);
    const args = parseToolArguments(expectString(fn.arguments, joinParam(functionParam, "arguments")), joinParam(functionParam, "arguments"));
    parts.push({ functionCall: { name, args } });
  });
  // Gemini refuses a content without parts: an empty assistant turn is an empty text.
  return parts.length === 0 ? [{ text: "" }] : parts;
}
