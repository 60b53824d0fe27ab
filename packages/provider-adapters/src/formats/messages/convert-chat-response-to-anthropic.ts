import type { JsonObject } from "@gateway/contracts";
import { normalizeChatUsage, type ChatUsage } from "../chat-completions/chat-usage.js";
import { renderMessagesUsage } from "./messages-usage.js";
import { GatewayError } from "@gateway/errors";
import { mapChatFinishReason } from "../chat-completions/map-chat-finish-reason.js";
import type { NormalizedUsage } from "@gateway/contracts";
import { isJsonObject } from "../request-guards.js";

/** Options of {@link convertChatResponseToAnthropic}. */
export interface ConvertChatResponseToAnthropicOptions {
  /** The model name to report (the caller's requested model). */
  model: string;
}

/**
 * Converts an OpenAI chat completion (first choice) into an Anthropic message: `content` and a
 * `refusal` become text blocks (a refusal sets `stop_reason: "refusal"`), `tool_calls` become
 * `tool_use` blocks with parsed `input`, `finish_reason` maps per `mapChatFinishReason`, and usage
 * keeps cache tokens (`input_tokens` excludes them). Use `normalizeChatUsage(response.usage)` for
 * the {@link NormalizedUsage} to bill. Throws `upstream_error` for a body that is not a chat
 * completion or tool arguments that are not a JSON object.
 */
export function convertChatResponseToAnthropic(
  response: unknown,
  options: ConvertChatResponseToAnthropicOptions,
): JsonObject {
  const choice = isJsonObject(response) && Array.isArray(response.choices) ? response.choices[0] : undefined;
  if (!isJsonObject(response) || !isJsonObject(choice) || !isJsonObject(choice.message)) {
    throw new GatewayError("upstream_error", {
      message: "The provider answered with a body that is not a chat completion.",
      retryable: true,
    });
  }
  const message = choice.message;
  const content: JsonObject[] = [];
  if (typeof message.content === "string" && message.content !== "") content.push({ type: "text", text: message.content });
  const refused = typeof message.refusal === "string" && message.refusal !== "";
  if (refused) content.push({ type: "text", text: message.refusal });
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isJsonObject(call) || !isJsonObject(call.function)) continue;
      content.push({
        type: "tool_use",
        id: call.id,
        name: call.function.name,
        input: parseProviderArguments(call.function.arguments),
      });
    }
  }
  const usage: NormalizedUsage = normalizeChatUsage(isJsonObject(response.usage) ? (response.usage as ChatUsage) : undefined);
  return {
    id: response.id,
    type: "message",
    role: "assistant",
    model: options.model,
    content,
    stop_reason: refused ? "refusal" : mapChatFinishReason(typeof choice.finish_reason === "string" ? choice.finish_reason : null),
    stop_sequence: null,
    usage: renderMessagesUsage(usage),
  };
}

function parseProviderArguments(argumentsText: unknown): JsonObject {
  if (argumentsText === undefined || argumentsText === null || argumentsText === "") return {};
  if (typeof argumentsText === "string") {
    try {
      const parsed: unknown = JSON.parse(argumentsText);
      if (isJsonObject(parsed)) return parsed;
    } catch {
      // fall through to the error below
    }
  }
  throw new GatewayError("upstream_error", {
    message: "The provider returned tool call arguments that are not a JSON object.",
    retryable: true,
  });
}
