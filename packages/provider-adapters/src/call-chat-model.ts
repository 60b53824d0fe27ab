import { GatewayError } from "@gateway/errors";
import type { ChatFormat, ChatModel, ForwardableHeaders, ProviderAdapter, ProviderCallContext, ProviderResult, ProviderTarget, RequestBody } from "./provider-adapter.js";
import { convertAnthropicResponseToChat } from "./formats/messages/convert-anthropic-response-to-chat.js";
import { convertChatRequestToAnthropic, translatedMaxTokensDefault } from "./formats/messages/convert-chat-request-to-anthropic.js";
import { convertChatResponseToAnthropic } from "./formats/messages/convert-chat-response-to-anthropic.js";
import { convertChatResponseToResponses } from "./formats/responses/convert-chat-response-to-responses.js";
import { convertMessagesRequestToChat } from "./formats/messages/convert-messages-request-to-chat.js";
import { convertResponsesRequestToChat } from "./formats/responses/convert-responses-request-to-chat.js";
import { getJsonResponseToolName } from "./formats/messages/get-json-response-tool-name.js";
import { translateOrThrow } from "./upstream-call.js";

/**
 * Answers a chat request with a connection's chat model. A request in a format the model passes
 * through for this target is sent as it is (the provider's bytes come back); any other is
 * translated into the model's first passthrough format, and a JSON answer translated back (a
 * stream comes back as frames of the model's format, which the caller's renderer translates).
 */
export function callChatModel(
  model: ChatModel,
  format: ChatFormat,
  body: RequestBody,
  target: ProviderTarget,
  context: ProviderCallContext,
  headers?: ForwardableHeaders,
): Promise<ProviderResult> {
  const passes = model.passesThrough === undefined ? model.passthrough.includes(format) : model.passesThrough(format, target);
  if (passes) return model.send(format, body, target, context, headers);
  return sendTranslated(model, format, body, target, context);
}

/** The connection's chat model, or 422 `unsupported_feature` when its provider has none. */
export function chatModelOf(adapter: ProviderAdapter, target: ProviderTarget): ChatModel {
  return adapter.chat ?? unsupportedCapability(target, "chat");
}

/** 422 `unsupported_feature` for a capability the target's provider does not have (retryable: another target may have it). */
export function unsupportedCapability(target: ProviderTarget, capability: "chat" | "embeddings" | "token counting" | "decisions"): never {
  const connection = target.connection;
  throw new GatewayError("unsupported_feature", {
    message: `The connection '${connection.name}' (${connection.kind}) does not serve ${capability}.`,
    param: "model",
    retryable: true,
    details: { provider: connection.name },
  });
}

async function sendTranslated(model: ChatModel, format: ChatFormat, body: RequestBody, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  const provider = target.connection.name;
  const native = model.passthrough[0];
  if (native === "openai-chat") {
    const chatBody = translateOrThrow(provider, () => toChatRequest(format, body, target, "openai"));
    // Usage arrives only in a final chunk, and only when asked for: always ask (billing).
    if (chatBody.stream === true) chatBody.stream_options = { include_usage: true };
    const result = await model.send("openai-chat", chatBody, target, context, undefined, {});
    if (result.kind !== "json") return result;
    const completion = result.body as Record<string, unknown>;
    const answer = translateOrThrow(provider, () =>
      format === "anthropic-messages"
        ? convertChatResponseToAnthropic(completion, { model: target.qualifiedModel })
        : convertChatResponseToResponses(completion, { model: target.qualifiedModel, requestId: context.requestId, request: body }),
    );
    return { kind: "json", status: result.status, body: answer, usage: result.usage, ...(result.headers === undefined ? {} : { headers: result.headers }) };
  }
  if (native === "anthropic-messages") {
    const chatBody = format === "openai-chat" ? body : translateOrThrow(provider, () => toChatRequest(format, body, target, "anthropic"));
    const anthropicBody = translateOrThrow(provider, () =>
      convertChatRequestToAnthropic(chatBody, { defaultMaxTokens: model.maxTokensDefault ?? translatedMaxTokensDefault, model: target.upstreamModel }),
    );
    const jsonResponseTool = getJsonResponseToolName(chatBody);
    const result = await model.send("anthropic-messages", anthropicBody, target, context, undefined, { jsonResponseTool });
    if (result.kind !== "json") return result;
    const answer = translateOrThrow(provider, () => {
      const completion = convertAnthropicResponseToChat(result.body as Record<string, unknown>, { model: target.qualifiedModel, jsonResponseTool });
      return format === "openai-chat"
        ? completion
        : convertChatResponseToResponses(completion, { model: target.qualifiedModel, requestId: context.requestId, request: body });
    });
    return { kind: "json", status: result.status, body: answer, usage: result.usage, ...(result.headers === undefined ? {} : { headers: result.headers }) };
  }
  throw new GatewayError("unsupported_feature", {
    message: `The connection '${provider}' takes no ${format} requests.`,
    param: "model",
    retryable: true,
    details: { provider },
  });
}

/** An OpenAI chat completions body for a messages or Responses request (the upstream model named). */
function toChatRequest(format: ChatFormat, body: RequestBody, target: ProviderTarget, destination: "openai" | "anthropic"): RequestBody {
  if (format === "openai-chat") return body;
  if (format === "anthropic-messages") return convertMessagesRequestToChat(body, { model: target.upstreamModel });
  return convertResponsesRequestToChat(body, { model: target.upstreamModel, target: destination });
}
