import type { JsonObject } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { buildResponseObject } from "./build-response-object.js";
import { normalizeChatUsage } from "../chat-completions/chat-usage.js";
import { isJsonObject } from "../request-guards.js";

/** Options of {@link convertChatResponseToResponses}. */
export interface ConvertChatResponseToResponsesOptions {
  /** The model name to report (`<connection>/<vendor>/<model>`). */
  model: string;
  /** The gateway request id: the response and item ids are derived from it. */
  requestId: string;
  /** The caller's Responses request (its settings are echoed). */
  request: JsonObject;
  /** Unix seconds for `created_at`; defaults to the completion's `created`, else now. */
  createdAt?: number;
}

/**
 * Converts an OpenAI chat completion (from a chat-only server, or translated from Anthropic)
 * into a Responses `response` object: reasoning the server returned (`reasoning_content`) becomes a
 * `reasoning` item, `content` an assistant `message` item with one `output_text` part (`refusal` a
 * `refusal` part), each tool call a `function_call` item (`call_id` = its id). `finish_reason`
 * `length` makes the response `incomplete` (`max_output_tokens`), `content_filter` `incomplete`
 * (`content_filter`); usage is rendered from the normalized chat usage (cache reads and writes
 * kept). Only the first choice is used.
 */
export function convertChatResponseToResponses(completion: unknown, options: ConvertChatResponseToResponsesOptions): JsonObject {
  if (!isJsonObject(completion) || !Array.isArray(completion.choices) || !isJsonObject(completion.choices[0])) {
    throw new GatewayError("upstream_error", { message: "The provider answered with a body that is not a chat completion.", retryable: true });
  }
  const suffix = options.requestId.replace(/^req_/, "");
  const choice = completion.choices[0];
  const message = isJsonObject(choice.message) ? choice.message : {};
  const output: JsonObject[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === "string" && reasoning !== "") {
    output.push({ id: `rs_${suffix}_${output.length}`, type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: reasoning }] });
  }
  const content: JsonObject[] = [];
  if (typeof message.content === "string" && message.content !== "") content.push({ type: "output_text", annotations: [], logprobs: [], text: message.content });
  if (typeof message.refusal === "string" && message.refusal !== "") content.push({ type: "refusal", refusal: message.refusal });
  if (content.length > 0) output.push({ id: `msg_${suffix}_${output.length}`, type: "message", status: "completed", content, role: "assistant" });
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isJsonObject(call) || !isJsonObject(call.function)) continue;
      output.push({
        id: `fc_${suffix}_${output.length}`,
        type: "function_call",
        status: "completed",
        arguments: typeof call.function.arguments === "string" && call.function.arguments !== "" ? call.function.arguments : "{}",
        call_id: typeof call.id === "string" ? call.id : "",
        name: typeof call.function.name === "string" ? call.function.name : "",
      });
    }
  }
  const finishReason = choice.finish_reason;
  const incompleteReason = finishReason === "length" ? "max_output_tokens" : finishReason === "content_filter" ? "content_filter" : null;
  return buildResponseObject({
    id: `resp_${suffix}`,
    createdAt: options.createdAt ?? (typeof completion.created === "number" ? completion.created : Math.floor(Date.now() / 1000)),
    model: options.model,
    status: incompleteReason === null ? "completed" : "incomplete",
    incompleteReason,
    output,
    request: options.request,
    usage: normalizeChatUsage(completion.usage),
  });
}
