import { GatewayError } from "@gateway/errors";
import { copyFields } from "./copy-fields.js";
import { createOpenAiLabelAsker, createOpenAiStatedAsker } from "./decision/openai-decision-calls.js";
import { runTranslatedDecision } from "./decision/run-translated-decision.js";
import type { HttpTransport } from "./http-transport.js";
import type { AdapterConnection, ProviderAdapter, ProviderCallContext, ProviderResult } from "./provider-adapter.js";
import { connectionServesResponses, servesResponsesNatively } from "./model-endpoints.js";
import { createChatStreamDecoder } from "./formats/chat-completions/create-chat-stream-decoder.js";
import { createResponsesStreamDecoder } from "./formats/responses/create-responses-stream-decoder.js";
import { decodeSseStream } from "./stream/decode-sse-stream.js";
import { parseSseStream } from "./stream/parse-sse-stream.js";
import { convertChatResponseToAnthropic } from "./formats/messages/convert-chat-response-to-anthropic.js";
import { convertChatResponseToResponses } from "./formats/responses/convert-chat-response-to-responses.js";
import { convertMessagesRequestToChat } from "./formats/messages/convert-messages-request-to-chat.js";
import { convertResponsesRequestToChat } from "./formats/responses/convert-responses-request-to-chat.js";
import { countTokensLocally } from "./token-counting/count-tokens-locally.js";
import { apiUrlOf, lowerCaseKeys, postJson, postStream, servedModelOf, translateOrThrow, translateOrThrowAsync } from "./upstream-call.js";
import { normalizeChatUsage } from "./formats/chat-completions/chat-usage.js";
import { normalizeResponsesUsage } from "./formats/responses/responses-usage.js";

/** Default base URL of `openai` connections without one. */
export const openAiDefaultBaseUrl = "https://api.openai.com/v1";

/** Dependencies of the HTTP adapters. */
export interface ProviderAdapterDependencies {
  transport: HttpTransport;
}

/**
 * Adapter for any OpenAI-compatible chat API: `POST {baseUrl}/chat/completions` with
 * `Authorization: Bearer <credential>` and the connection's extra headers.
 *
 * - `chatCompletions` is native: the body passes through untouched except `model`. For
 *   streams the adapter forces `stream_options.include_usage: true` upstream so usage is
 *   always known (billing); the chunks are decoded into typed parts once (`openai-chat`
 *   frames), and the caller's renderer forwards the provider's bytes (leaving out the
 *   usage-only chunk when the caller did not ask for it).
 * - `decide` is translated: single-token labels with `logprobs` (or, when the connection
 *   says `logprobs: false`, a JSON-schema probability map). When the upstream answers 400
 *   with a message naming `logprobs`, the request is answered again with the probability map.
 * - `countTokens` counts an Anthropic `count_tokens` body locally (`countTokensLocally`: the
 *   body is translated as `messages` would translate it, then counted with the model family's
 *   tokenizer); the answer says `local: true` and whether the count is `exact`.
 * - `messages` (Anthropic format) is translated: the request with
 *   `convertMessagesRequestToChat` (streams always ask for `stream_options.include_usage`), the
 *   answer with `convertChatResponseToAnthropic`; a stream is returned as `openai-chat` frames
 *   for the caller's renderer to translate. `model` in the answer is `target.qualifiedModel`.
 * - `responses` is native (`POST {baseUrl}/responses`, the body passed through with the upstream
 *   model and `store: false`; streams decoded as `openai-responses` frames) for models that answer
 *   the Responses API on a connection that serves it (`servesResponsesNatively`), and translated
 *   otherwise: `convertResponsesRequestToChat`, the answer with `convertChatResponseToResponses`,
 *   a stream as `openai-chat` frames (usage always asked for).
 * - `embeddings` is native (`POST {baseUrl}/embeddings`, the body passed through).
 */
export function createOpenAiAdapter(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): ProviderAdapter {
  const { transport } = dependencies;
  const useLogprobs = connection.logprobs !== false;

  function headers(): Record<string, string> {
    return {
      accept: "application/json",
      ...(connection.credential ? { authorization: `Bearer ${connection.credential}` } : {}),
      ...lowerCaseKeys(connection.headers),
    };
  }

  const url = () => apiUrlOf(connection, "/chat/completions", openAiDefaultBaseUrl);
  const responsesUrl = () => apiUrlOf(connection, "/responses", openAiDefaultBaseUrl);

  /** POSTs a chat completions request with `stream: true` and decodes its chunks into typed parts. */
  async function streamChat(upstreamBody: Record<string, unknown>, context: ProviderCallContext): Promise<ProviderResult> {
    const response = await postStream({
      transport,
      connection,
      url: url(),
      headers: { ...headers(), accept: "text/event-stream" },
      body: upstreamBody,
      context,
    });
    return {
      kind: "stream",
      status: response.status,
      format: "openai-chat",
      frames: decodeSseStream(parseSseStream(response.body), createChatStreamDecoder(), { secrets: [connection.credential] }),
    };
  }

  return {
    kind: "openai",
    capabilities: {
      decisions: "translated",
      logprobs: useLogprobs,
      chatFormat: "openai",
      countTokens: "local",
      chatCompletions: "native",
      messages: "translated",
      responses: connectionServesResponses(connection) ? "native" : "translated",
      embeddings: "native",
    },

    async decide(request, target, context) {
      const call = { transport, connection, url: url(), headers: headers(), model: target.upstreamModel };
      if (!useLogprobs) return runTranslatedDecision({ request, target, context, asker: createOpenAiStatedAsker(call) });
      try {
        return await runTranslatedDecision({ request, target, context, asker: createOpenAiLabelAsker(call) });
      } catch (error) {
        // Models that reject `logprobs` (reasoning models) answer 400 naming it: fall back to
        // stated probabilities for this request.
        if (!rejectsLogprobs(error)) throw error;
        return runTranslatedDecision({ request, target, context, asker: createOpenAiStatedAsker(call) });
      }
    },

    async chatCompletions(body, target, context) {
      const upstreamBody = copyFields(body);
      upstreamBody.model = target.upstreamModel;
      if (body.stream !== true) {
        const response = await postJson({ transport, connection, url: url(), headers: headers(), body: upstreamBody, context });
        return {
          kind: "json",
          status: response.status,
          body: response.body,
          bodyText: response.text,
          usage: normalizeChatUsage(response.body.usage),
        };
      }
      // Usage arrives only in a final chunk, and only when asked for: always ask (billing). The
      // caller's renderer leaves that chunk out when the caller did not ask for it.
      const streamOptions =
        typeof body.stream_options === "object" && body.stream_options !== null ? copyFields(body.stream_options as Record<string, unknown>) : {};
      streamOptions.include_usage = true;
      upstreamBody.stream_options = streamOptions;
      return streamChat(upstreamBody, context);
    },

    async messages(body, target, context) {
      const chatBody = translateOrThrow(connection.name, () => convertMessagesRequestToChat(body, { model: target.upstreamModel }));
      if (chatBody.stream !== true) {
        const response = await postJson({ transport, connection, url: url(), headers: headers(), body: chatBody, context });
        const message = translateOrThrow(connection.name, () =>
          convertChatResponseToAnthropic(response.body, { model: target.qualifiedModel }),
        );
        return {
          kind: "json",
          status: response.status,
          body: message,
          usage: normalizeChatUsage(response.body.usage),
        };
      }
      chatBody.stream_options = { include_usage: true };
      return streamChat(chatBody, context);
    },

    async responses(body, target, context) {
      if (servesResponsesNatively(connection, servedModelOf(target))) {
        const upstreamBody = copyFields(body);
        upstreamBody.model = target.upstreamModel;
        upstreamBody.store = false;
        if (body.stream !== true) {
          const response = await postJson({ transport, connection, url: responsesUrl(), headers: headers(), body: upstreamBody, context });
          return { kind: "json", status: response.status, body: response.body, bodyText: response.text, usage: normalizeResponsesUsage(response.body.usage) };
        }
        const response = await postStream({ transport, connection, url: responsesUrl(), headers: { ...headers(), accept: "text/event-stream" }, body: upstreamBody, context });
        return { kind: "stream", status: response.status, format: "openai-responses", frames: decodeSseStream(parseSseStream(response.body), createResponsesStreamDecoder(), { secrets: [connection.credential] }) };
      }
      const chatBody = translateOrThrow(connection.name, () => convertResponsesRequestToChat(body, { model: target.upstreamModel, target: "openai" }));
      if (chatBody.stream !== true) {
        const response = await postJson({ transport, connection, url: url(), headers: headers(), body: chatBody, context });
        const converted = translateOrThrow(connection.name, () =>
          convertChatResponseToResponses(response.body, { model: target.qualifiedModel, requestId: context.requestId, request: body }),
        );
        return { kind: "json", status: response.status, body: converted, usage: normalizeChatUsage(response.body.usage) };
      }
      chatBody.stream_options = { include_usage: true };
      return streamChat(chatBody, context);
    },

    async embeddings(body, target, context) {
      const response = await postJson({
        transport,
        connection,
        url: apiUrlOf(connection, "/embeddings", openAiDefaultBaseUrl),
        headers: headers(),
        body: { ...body, model: target.upstreamModel },
        context,
      });
      return { kind: "json", status: response.status, body: response.body, bodyText: response.text, usage: normalizeChatUsage(response.body.usage) };
    },

    async countTokens(body, target) {
      const count = await translateOrThrowAsync(connection.name, () => countTokensLocally(body, target.upstreamModel));
      return { inputTokens: count.inputTokens, local: true, exact: count.exact };
    },
  };
}

function rejectsLogprobs(error: unknown): boolean {
  return GatewayError.isInstance(error) && error.code === "invalid_request" && /logprobs/i.test(error.message);
}
