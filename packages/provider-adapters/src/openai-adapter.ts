import { normalizeChatUsage, type ChatUsage } from "./usage/chat-usage.js";
import { GatewayError } from "@gateway/errors";
import { createOpenAiLabelAsker, createOpenAiStatedAsker } from "./decision/openai-decision-calls.js";
import { runTranslatedDecision } from "./decision/run-translated-decision.js";
import type { HttpTransport } from "./http-transport.js";
import type { NormalizedUsage } from "@gateway/contracts";
import type { ProviderAdapter, AdapterConnection, SseEvent } from "./provider-adapter.js";
import { emptyUsage } from "./provider-adapter.js";
import { translateUpstreamStream } from "./translate-upstream-stream.js";
import {
  convertChatResponseToAnthropic,
  convertMessagesRequestToChat,
  countTokensLocally,
  createChatToAnthropicStream,
  parseSseStream,
} from "./translation/index.js";
import {
  baseUrlOf,
  joinUrl,
  lowerCaseKeys,
  postJson,
  postStream,
  promptLength,
  translateOrThrow,
  translateOrThrowAsync,
  tryParseJson,
} from "./upstream-call.js";

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
 *   always known (billing), and drops that final usage-only chunk when the caller did not
 *   ask for it; every other event is yielded as it arrives.
 * - `decide` is translated: single-token labels with `logprobs` (or, when the connection
 *   says `logprobs: false`, a JSON-schema probability map). When the upstream answers 400
 *   with a message naming `logprobs`, the request is answered again with the probability map.
 * - `countTokens` counts an Anthropic `count_tokens` body locally (`countTokensLocally`: the
 *   body is translated as `messages` would translate it, then counted with the model family's
 *   tokenizer); the answer says `local: true` and whether the count is `exact`.
 * - `messages` (Anthropic format) is translated: the request with
 *   `convertMessagesRequestToChat` (streams always ask for `stream_options.include_usage`), the
 *   answer with `convertChatResponseToAnthropic` or, for streams, `createChatToAnthropicStream`
 *   (an in-stream failure ends with `event: error`). `model` in the answer is
 *   `target.qualifiedModel`.
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

  const url = () => joinUrl(baseUrlOf(connection, openAiDefaultBaseUrl), "/chat/completions");

  return {
    kind: "openai",
    capabilities: {
      decisions: "translated",
      logprobs: useLogprobs,
      chatFormat: "openai",
      countTokens: "local",
      chatCompletions: "native",
      messages: "translated",
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
      const upstreamBody: Record<string, unknown> = { ...body, model: target.upstreamModel };
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
      const callerStreamOptions =
        typeof body.stream_options === "object" && body.stream_options !== null
          ? (body.stream_options as Record<string, unknown>)
          : {};
      const callerWantsUsage = callerStreamOptions.include_usage === true;
      upstreamBody.stream_options = { ...callerStreamOptions, include_usage: true };
      const response = await postStream({
        transport,
        connection,
        url: url(),
        headers: { ...headers(), accept: "text/event-stream" },
        body: upstreamBody,
        context,
      });
      let usage: NormalizedUsage = emptyUsage();
      async function* events(): AsyncGenerator<SseEvent> {
        for await (const event of parseSseStream(response.body)) {
          if (event.data !== "[DONE]") {
            const chunk = tryParseJson(event.data) as Record<string, unknown> | undefined;
            if (chunk !== undefined && typeof chunk.usage === "object" && chunk.usage !== null) {
              usage = normalizeChatUsage(chunk.usage);
              const usageOnly = Array.isArray(chunk.choices) && chunk.choices.length === 0;
              if (usageOnly && !callerWantsUsage) continue;
            }
          }
          yield event;
        }
      }
      return { kind: "stream", status: response.status, events: events(), usage: () => usage };
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
          usage: normalizeChatUsage(response.body.usage as ChatUsage | undefined),
        };
      }
      // Usage arrives only in the final chunk, and only when asked for: always ask (billing).
      chatBody.stream_options = { include_usage: true };
      const response = await postStream({
        transport,
        connection,
        url: url(),
        headers: { ...headers(), accept: "text/event-stream" },
        body: chatBody,
        context,
      });
      const stream = translateUpstreamStream({
        source: parseSseStream(response.body),
        transformer: createChatToAnthropicStream({ model: target.qualifiedModel, requestId: context.requestId }),
        promptCharacters: () => promptLength(chatBody),
      });
      return { kind: "stream", status: response.status, events: stream.events, usage: stream.usage };
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
