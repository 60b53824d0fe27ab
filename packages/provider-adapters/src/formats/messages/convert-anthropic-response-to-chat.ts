import type { JsonObject } from "@gateway/contracts";
import { normalizeMessagesUsage, type MessagesUsage } from "./messages-usage.js";
import { renderChatUsage } from "../chat-completions/chat-usage.js";
import { GatewayError } from "@gateway/errors";
import type { NormalizedUsage } from "@gateway/contracts";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { isJsonObject } from "../request-guards.js";

/** Options of {@link convertAnthropicResponseToChat}. */
export interface ConvertAnthropicResponseToChatOptions {
  /** The model name to report (the caller's requested model). */
  model: string;
  /** The `response_format` tool name (see `getJsonResponseToolName`): its input becomes the message content. */
  jsonResponseTool?: string;
  /** Unix seconds for `created`; defaults to now. */
  created?: number;
}

/** Text used as `message.refusal` when Anthropic refuses without any text. */
export const DEFAULT_REFUSAL_MESSAGE = "The model declined to respond to this request.";

/**
 * Converts an Anthropic messages response into an OpenAI chat completion. Text blocks join into
 * `message.content`; `tool_use` blocks become `tool_calls` with JSON-string arguments; a refusal
 * becomes `finish_reason: "content_filter"` with `message.refusal`; usage keeps cache tokens
 * (`prompt_tokens` includes them, `prompt_tokens_details.cached_tokens` = cache reads,
 * `prompt_tokens_details.cache_write_tokens` = cache writes). Use `normalizeMessagesUsage(response.usage)`
 * for the {@link NormalizedUsage} to bill.
 */
export function convertAnthropicResponseToChat(
  response: unknown,
  options: ConvertAnthropicResponseToChatOptions,
): JsonObject {
  if (!isJsonObject(response) || !Array.isArray(response.content)) {
    throw new GatewayError("upstream_error", {
      message: "The provider answered with a body that is not an Anthropic message.",
      retryable: true,
    });
  }
  let text = "";
  let jsonContent: string | undefined;
  const toolCalls: JsonObject[] = [];
  for (const block of response.content) {
    if (!isJsonObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") {
      text += block.text;
    } else if (block.type === "tool_use") {
      const input = JSON.stringify(block.input ?? {});
      if (options.jsonResponseTool !== undefined && block.name === options.jsonResponseTool) {
        jsonContent = input;
      } else {
        toolCalls.push({ id: block.id, type: "function", function: { name: block.name, arguments: input } });
      }
    }
    // thinking and server-tool blocks are never requested by the translated request.
  }

  const stopReason = typeof response.stop_reason === "string" ? response.stop_reason : null;
  let finishReason = mapAnthropicStopReason(stopReason);
  const message: JsonObject = { role: "assistant", content: null, refusal: null };
  if (stopReason === "refusal") {
    message.refusal = text === "" ? DEFAULT_REFUSAL_MESSAGE : text;
  } else if (jsonContent !== undefined) {
    message.content = jsonContent;
    if (finishReason === "tool_calls" && toolCalls.length === 0) finishReason = "stop";
  } else if (text !== "" || toolCalls.length === 0) {
    message.content = text;
  }
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  message.annotations = [];

  const usage = normalizeMessagesUsage(isJsonObject(response.usage) ? (response.usage as MessagesUsage) : undefined);
  return {
    id: response.id,
    object: "chat.completion",
    created: options.created ?? Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: renderChatUsage(usage),
  };
}
