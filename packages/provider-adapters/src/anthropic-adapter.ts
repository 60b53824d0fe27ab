import { normalizeMessagesUsage, type MessagesUsage } from "./usage/messages-usage.js";
import { createAnthropicStatedAsker } from "./decision/anthropic-decision-calls.js";
import { runTranslatedDecision } from "./decision/run-translated-decision.js";
import type { ProviderAdapterDependencies } from "./openai-adapter.js";
import type { NormalizedUsage } from "@gateway/contracts";
import type { ForwardableHeaders, ProviderAdapter, AdapterConnection, SseEvent } from "./provider-adapter.js";
import { emptyUsage } from "./provider-adapter.js";
import { translateUpstreamStream } from "./translate-upstream-stream.js";
import {
  convertAnthropicResponseToChat,
  convertChatRequestToAnthropic,
  createAnthropicToChatStream,
  getJsonResponseToolName,
  parseSseStream,
} from "./translation/index.js";
import {
  baseUrlOf,
  joinUrl,
  lowerCaseKeys,
  malformedAnswer,
  postJson,
  postStream,
  promptLength,
  translateOrThrow,
  tryParseJson,
} from "./upstream-call.js";

/** Default base URL of `anthropic` connections without one. */
export const anthropicDefaultBaseUrl = "https://api.anthropic.com";

/** The `anthropic-version` sent when the caller gives none. */
export const anthropicDefaultVersion = "2023-06-01";

/**
 * `max_tokens` sent upstream when an OpenAI-format request (translated to Anthropic) has neither
 * `max_completion_tokens` nor `max_tokens`: Anthropic requires one. A connection's
 * `defaultMaxTokens` overrides it.
 */
export const anthropicDefaultMaxTokens = 4096;

/**
 * Adapter for the Anthropic Messages API: `POST {baseUrl}/v1/messages` with `x-api-key`,
 * `anthropic-version` (the caller's, else 2023-06-01), the caller's `anthropic-beta` and the
 * connection's extra headers.
 *
 * - `messages` is native (JSON and SSE passthrough; usage from `message_start` and the
 *   cumulative `message_delta` usage, cache tokens included).
 * - `countTokens` is native (`POST /v1/messages/count_tokens`).
 * - `decide` is translated with a forced tool call that states a probability per option.
 * - `chatCompletions` (OpenAI format) is translated: the request with
 *   `convertChatRequestToAnthropic` (`max_tokens` defaults to the connection's
 *   `defaultMaxTokens`, else {@link anthropicDefaultMaxTokens}), the answer with
 *   `convertAnthropicResponseToChat` or, for streams, `createAnthropicToChatStream` (the
 *   caller's `stream_options.include_usage` decides the final usage chunk; an in-stream failure
 *   ends with a final `data: {"error":...}`). `model` in the answer is `target.qualifiedModel`.
 */
export function createAnthropicAdapter(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): ProviderAdapter {
  const { transport } = dependencies;

  function headers(callerHeaders?: ForwardableHeaders): Record<string, string> {
    const result: Record<string, string> = {
      accept: "application/json",
      "anthropic-version": anthropicDefaultVersion,
      ...(connection.credential ? { "x-api-key": connection.credential } : {}),
      ...lowerCaseKeys(connection.headers),
    };
    const version = headerValue(callerHeaders, "anthropic-version");
    if (version !== undefined) result["anthropic-version"] = version;
    const beta = headerValue(callerHeaders, "anthropic-beta");
    if (beta !== undefined) {
      const values = [result["anthropic-beta"], beta].filter((value): value is string => value !== undefined);
      result["anthropic-beta"] = [...new Set(values.flatMap((value) => value.split(",").map((part) => part.trim())))]
        .filter((part) => part !== "")
        .join(",");
    }
    return result;
  }

  const base = () => baseUrlOf(connection, anthropicDefaultBaseUrl);
  const maxTokensDefault =
    typeof connection.defaultMaxTokens === "number" && Number.isInteger(connection.defaultMaxTokens) && connection.defaultMaxTokens > 0
      ? connection.defaultMaxTokens
      : anthropicDefaultMaxTokens;

  return {
    kind: "anthropic",
    capabilities: {
      decisions: "translated",
      logprobs: false,
      chatFormat: "anthropic",
      countTokens: "native",
      chatCompletions: "translated",
      messages: "native",
    },

    async decide(request, target, context) {
      const asker = createAnthropicStatedAsker({
        transport,
        connection,
        url: joinUrl(base(), "/v1/messages"),
        headers: headers(),
        model: target.upstreamModel,
      });
      return runTranslatedDecision({ request, target, context, asker });
    },

    async messages(body, target, context, callerHeaders) {
      const upstreamBody: Record<string, unknown> = { ...body, model: target.upstreamModel };
      const url = joinUrl(base(), "/v1/messages");
      if (body.stream !== true) {
        const response = await postJson({ transport, connection, url, headers: headers(callerHeaders), body: upstreamBody, context });
        return {
          kind: "json",
          status: response.status,
          body: response.body,
          bodyText: response.text,
          usage: normalizeMessagesUsage(response.body.usage),
        };
      }
      const response = await postStream({
        transport,
        connection,
        url,
        headers: { ...headers(callerHeaders), accept: "text/event-stream" },
        body: upstreamBody,
        context,
      });
      let usage: NormalizedUsage = emptyUsage();
      let usageFields: Record<string, unknown> = {};
      async function* events(): AsyncGenerator<SseEvent> {
        for await (const event of parseSseStream(response.body)) {
          const data = tryParseJson(event.data) as Record<string, unknown> | undefined;
          if (data?.type === "message_start") {
            const message = data.message as Record<string, unknown> | undefined;
            usageFields = { ...usageFields, ...definedFields(message?.usage) };
            usage = normalizeMessagesUsage(usageFields);
          } else if (data?.type === "message_delta") {
            // `message_delta.usage` is cumulative; fields it omits keep their earlier values.
            usageFields = { ...usageFields, ...definedFields(data.usage) };
            usage = normalizeMessagesUsage(usageFields);
          }
          yield event;
        }
      }
      return { kind: "stream", status: response.status, events: events(), usage: () => usage };
    },

    async countTokens(body, target, context, callerHeaders) {
      const response = await postJson({
        transport,
        connection,
        url: joinUrl(base(), "/v1/messages/count_tokens"),
        headers: headers(callerHeaders),
        body: { ...body, model: target.upstreamModel },
        context,
      });
      const inputTokens = response.body.input_tokens;
      if (typeof inputTokens !== "number" || !Number.isInteger(inputTokens) || inputTokens < 0) {
        throw malformedAnswer(connection.name, "has no valid input_tokens");
      }
      return { inputTokens, local: false };
    },

    async chatCompletions(body, target, context) {
      const anthropicBody = translateOrThrow(connection.name, () =>
        convertChatRequestToAnthropic(body, { defaultMaxTokens: maxTokensDefault, model: target.upstreamModel }),
      );
      const jsonResponseTool = getJsonResponseToolName(body);
      const url = joinUrl(base(), "/v1/messages");
      if (anthropicBody.stream !== true) {
        const response = await postJson({ transport, connection, url, headers: headers(), body: anthropicBody, context });
        const completion = translateOrThrow(connection.name, () =>
          convertAnthropicResponseToChat(response.body, { model: target.qualifiedModel, jsonResponseTool }),
        );
        return {
          kind: "json",
          status: response.status,
          body: completion,
          usage: normalizeMessagesUsage(response.body.usage as MessagesUsage | undefined),
        };
      }
      const response = await postStream({
        transport,
        connection,
        url,
        headers: { ...headers(), accept: "text/event-stream" },
        body: anthropicBody,
        context,
      });
      const streamOptions = body.stream_options as { include_usage?: unknown } | null | undefined;
      const stream = translateUpstreamStream({
        source: parseSseStream(response.body),
        transformer: createAnthropicToChatStream({
          model: target.qualifiedModel,
          includeUsage: streamOptions?.include_usage === true,
          requestId: context.requestId,
          jsonResponseTool,
        }),
        promptCharacters: () => promptLength(anthropicBody),
      });
      return { kind: "stream", status: response.status, events: stream.events, usage: stream.usage };
    },
  };
}

function headerValue(headers: ForwardableHeaders | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.join(",");
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function definedFields(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, entry]) => entry !== null && entry !== undefined));
}
