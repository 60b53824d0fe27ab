import { callChatModel, chatCompletionsFormat, chatModelOf, createStreamRenderer, messagesFormat } from "@gateway/provider-adapters";
import { modelRouter } from "../call/call-router.js";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import { applyAnswerGuardrails } from "../stages/apply-answer-guardrails.js";
import { estimateChatAdmission } from "../stages/estimate-chat-admission.js";
import { type ChatBody, type ChatFormat, parseChatBody } from "./parse-chat-body.js";

const chatCompletionsRouter = modelRouter("chat_completions");
const messagesRouter = modelRouter("messages");

function chatShapedEndpoint(format: ChatFormat): InferenceEndpoint<ChatBody> {
  const openai = format === "openai";
  const wireFormat = openai ? chatCompletionsFormat : messagesFormat;
  return {
    name: openai ? "chat_completions" : "messages",
    router: openai ? chatCompletionsRouter : messagesRouter,
    errorFormat: openai ? "gateway" : "anthropic",
    allowApiKeyHeader: !openai,
    capturesContent: true,
    guardrailFormat: openai ? "openai_chat" : "anthropic_messages",
    parse: (body) => parseChatBody(body, format),
    model: (request) => request.model,
    admission: ({ snapshot, identity, plan, request }) => estimateChatAdmission({ snapshot, identity, plan, body: request, format }),
    invoke: ({ adapter, request, target, context, headers }) =>
      openai
        ? callChatModel(chatModelOf(adapter, target), "openai-chat", request, target, context)
        : callChatModel(chatModelOf(adapter, target), "anthropic-messages", request, target, context, headers),
    guardOutput: (body, guardrails) => applyAnswerGuardrails(guardrails, body, wireFormat),
    streamRenderer: ({ format: upstreamFormat, request, target, requestId }) =>
      createStreamRenderer({
        from: upstreamFormat,
        to: openai ? "openai-chat" : "anthropic-messages",
        requestId,
        model: target.qualifiedModel,
        includeUsage: (request.stream_options as { include_usage?: unknown } | null | undefined)?.include_usage === true,
      }),
  };
}

/**
 * `POST /v1/chat/completions`: OpenAI format in and out, on any provider with a chat model
 * (passed through where the model takes chat completions, else translated). Errors use the gateway body.
 */
export const chatCompletionsEndpoint: InferenceEndpoint<ChatBody> = chatShapedEndpoint("openai");

/**
 * `POST /v1/messages`: Anthropic format in and out (passed through where the model takes
 * messages, else translated); `x-api-key: gak_...` is accepted, `anthropic-version`
 * and `anthropic-beta` are forwarded, and errors use the Anthropic error body and types.
 */
export const messagesEndpoint: InferenceEndpoint<ChatBody> = chatShapedEndpoint("anthropic");
