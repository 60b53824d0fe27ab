import { GatewayError } from "@gateway/errors";
import type { ChatCompletion, ChatRequest } from "./chat-request.js";
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
 * translated: into the provider-neutral {@link ChatRequest} for a model that answers it
 * (`generate`), else into the model's first passthrough format; a JSON answer is translated back
 * (a stream comes back as frames of parts, which the caller's renderer encodes).
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
  if (passes && model.send !== undefined) return model.send(format, body, target, context, headers);
  if (hasGenerate(model)) return generateTranslated(model, format, body, target, context);
  return sendTranslated(model, format, body, target, context);
}

function hasGenerate(model: ChatModel): model is ChatModel & Required<Pick<ChatModel, "generate">> {
  return model.generate !== undefined;
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

/** The caller's request as the neutral request, answered by the model, the answer in the caller's format. */
async function generateTranslated(
  model: ChatModel & Required<Pick<ChatModel, "generate">>,
  format: ChatFormat,
  body: RequestBody,
  target: ProviderTarget,
  context: ProviderCallContext,
): Promise<ProviderResult> {
  const provider = target.connection.name;
  const request = translateOrThrow(provider, () => toChatRequest(format, body, target, "openai")) as ChatRequest;
  // A chat completions body is the caller's own object: the model reads it, the upstream model named in a copy.
  const neutral: ChatRequest = format === "openai-chat" ? { ...request, model: target.upstreamModel } : request;
  const result = await model.generate(neutral, target, context);
  if (result.kind === "stream") return result;
  // Like every translated answer, it names the model as the gateway knows it.
  const completion: ChatCompletion = { ...result.body, model: target.qualifiedModel };
  return { kind: "json", status: result.status, body: chatAnswerIn(format, completion, body, target, context), usage: result.usage, ...(result.headers === undefined ? {} : { headers: result.headers }) };
}

/** A chat completion in the caller's format (the caller's `body` is echoed by Responses objects). */
function chatAnswerIn(format: ChatFormat, completion: ChatCompletion | Record<string, unknown>, body: RequestBody, target: ProviderTarget, context: ProviderCallContext): unknown {
  if (format === "openai-chat") return completion;
  const answer = completion as Record<string, unknown>;
  return translateOrThrow(target.connection.name, () =>
    format === "anthropic-messages"
      ? convertChatResponseToAnthropic(answer, { model: target.qualifiedModel })
      : convertChatResponseToResponses(answer, { model: target.qualifiedModel, requestId: context.requestId, request: body }),
  );
}

async function sendTranslated(model: ChatModel, format: ChatFormat, body: RequestBody, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  const provider = target.connection.name;
  const native = model.passthrough[0];
  if (model.send === undefined) throw new Error(`The chat model of '${provider}' has neither passthrough formats nor generate().`);
  if (native === "openai-chat") {
    const chatBody = translateOrThrow(provider, () => toChatRequest(format, body, target, "openai"));
    // Usage arrives only in a final chunk, and only when asked for: always ask (billing).
    if (chatBody.stream === true) chatBody.stream_options = { include_usage: true };
    const result = await model.send("openai-chat", chatBody, target, context, undefined, {});
    if (result.kind !== "json") return result;
    const answer = chatAnswerIn(format, result.body as Record<string, unknown>, body, target, context);
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
    const completion = translateOrThrow(provider, () => {
      return convertAnthropicResponseToChat(result.body as Record<string, unknown>, { model: target.qualifiedModel, jsonResponseTool });
    });
    const answer = format === "openai-chat" ? completion : chatAnswerIn(format, completion, body, target, context);
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
