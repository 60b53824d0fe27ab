import type { NormalizedUsage } from "@gateway/contracts";
import type { ChatCompletion, ChatToolCall } from "../../chat-request.js";
import { malformedAnswer } from "../../upstream-call.js";
import { normalizeConverseUsage } from "./converse-usage.js";
import { mapConverseStopReason } from "./map-converse-stop-reason.js";
import { renderChatUsage } from "../../formats/chat-completions/chat-usage.js";

/** Options of {@link convertConverseResponseToChat}. */
export interface ConvertConverseResponseOptions {
  /** The model the answer names. */
  model: string;
  /** The answer's id (Converse answers have none: the request id of the call). */
  id: string;
  /** The forced tool of a translated `response_format`: its input is the answer's text. */
  jsonResponseTool?: string;
  provider: string;
  /** Epoch seconds of `created`. */
  created: number;
}

/**
 * Converts a Converse answer (`output.message.content`, `stopReason`, `usage`) into a chat
 * completion: text blocks joined as `content`, `toolUse` blocks as `tool_calls` (input as JSON
 * text), `reasoningContent` as `reasoning_content`; the forced `response_format` tool's input as
 * the text (`finish_reason: stop`). An answer without `output.message` is a 502.
 */
export function convertConverseResponseToChat(body: Record<string, unknown>, options: ConvertConverseResponseOptions): { completion: ChatCompletion; usage: NormalizedUsage } {
  const output = body.output as { message?: { content?: unknown } } | undefined;
  const content = output?.message?.content;
  if (!Array.isArray(content)) throw malformedAnswer(options.provider, "has no output message");
  let text = "";
  let reasoning = "";
  let answeredWithJsonTool = false;
  const toolCalls: ChatToolCall[] = [];
  for (const block of content as Record<string, unknown>[]) {
    if (typeof block?.text === "string") text += block.text;
    const reasoningText = (block?.reasoningContent as { reasoningText?: { text?: unknown } } | undefined)?.reasoningText?.text;
    if (typeof reasoningText === "string") reasoning += reasoningText;
    const toolUse = block?.toolUse as { toolUseId?: unknown; name?: unknown; input?: unknown } | undefined;
    if (toolUse === undefined) continue;
    if (typeof toolUse.name !== "string" || typeof toolUse.toolUseId !== "string") throw malformedAnswer(options.provider, "has a tool use without a name or id");
    if (options.jsonResponseTool !== undefined && toolUse.name === options.jsonResponseTool) {
      text += JSON.stringify(toolUse.input ?? {});
      answeredWithJsonTool = true;
      continue;
    }
    toolCalls.push({ id: toolUse.toolUseId, type: "function", function: { name: toolUse.name, arguments: JSON.stringify(toolUse.input ?? {}) } });
  }
  const usage = normalizeConverseUsage(body.usage);
  const finishReason = answeredWithJsonTool && toolCalls.length === 0 ? "stop" : mapConverseStopReason(body.stopReason);
  const completion: ChatCompletion = {
    id: options.id,
    object: "chat.completion",
    created: options.created,
    model: options.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text === "" && toolCalls.length > 0 ? null : text,
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
          ...(reasoning === "" ? {} : { reasoning_content: reasoning }),
        },
        finish_reason: finishReason,
      },
    ],
    usage: renderChatUsage(usage) as ChatCompletion["usage"],
  };
  return { completion, usage };
}
