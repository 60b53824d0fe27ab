import { createAnthropicStatedAsker } from "./decision/anthropic-decision-calls.js";
import { runTranslatedDecision } from "./decision/run-translated-decision.js";
import type { ProviderAdapterDependencies } from "./openai-adapter.js";
import type { AdapterConnection, ForwardableHeaders, ProviderAdapter, ProviderCallContext, ProviderResult } from "./provider-adapter.js";
import { type MessagesStreamDecoderOptions, createMessagesStreamDecoder } from "./formats/messages/create-messages-stream-decoder.js";
import { decodeSseStream } from "./stream/decode-sse-stream.js";
import { parseSseStream } from "./stream/parse-sse-stream.js";
import { GatewayError } from "@gateway/errors";
import { convertAnthropicResponseToChat } from "./formats/messages/convert-anthropic-response-to-chat.js";
import { convertChatRequestToAnthropic } from "./formats/messages/convert-chat-request-to-anthropic.js";
import { convertChatResponseToResponses } from "./formats/responses/convert-chat-response-to-responses.js";
import { convertResponsesRequestToChat } from "./formats/responses/convert-responses-request-to-chat.js";
import { getJsonResponseToolName } from "./formats/messages/get-json-response-tool-name.js";
import { apiUrlOf, lowerCaseKeys, malformedAnswer, postJson, postStream, translateOrThrow } from "./upstream-call.js";
import { normalizeMessagesUsage } from "./formats/messages/messages-usage.js";

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
 * Adapter for the Anthropic Messages API: `POST {baseUrl}/v1/messages` (base URL with or without `/v1`) with `x-api-key`,
 * `anthropic-version` (the caller's, else 2023-06-01), the caller's `anthropic-beta` and the
 * connection's extra headers.
 *
 * - `messages` is native (JSON passthrough; a stream is decoded into typed parts once, as
 *   `anthropic-messages` frames whose provider bytes the caller's renderer forwards; usage from
 *   `message_start` and the cumulative `message_delta` usage, cache tokens included).
 * - `countTokens` is native (`POST /v1/messages/count_tokens`).
 * - `decide` is translated with a forced tool call that states a probability per option.
 * - `chatCompletions` (OpenAI format) is translated: the request with
 *   `convertChatRequestToAnthropic` (`max_tokens` defaults to the connection's
 *   `defaultMaxTokens`, else {@link anthropicDefaultMaxTokens}), the answer with
 *   `convertAnthropicResponseToChat`; a stream is returned as `anthropic-messages` frames (a
 *   translated `response_format` tool decoded as text) for the caller's renderer to translate.
 *   `model` in the answer is `target.qualifiedModel`.
 * - `responses` (OpenAI Responses format) is translated through chat completions:
 *   `convertResponsesRequestToChat` (target `anthropic`), then as `chatCompletions`; the answer
 *   with `convertAnthropicResponseToChat` then `convertChatResponseToResponses`; a stream as
 *   `anthropic-messages` frames for the caller's renderer.
 * - `embeddings`: Anthropic has no embeddings API (`unsupported_feature`).
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

  const apiUrl = (path: string) => apiUrlOf(connection, path, anthropicDefaultBaseUrl);

  /** POSTs a messages request with `stream: true` and decodes its events into typed parts. */
  async function streamMessages(call: {
    url: string;
    headers: Record<string, string>;
    body: Record<string, unknown>;
    context: ProviderCallContext;
    decoder?: MessagesStreamDecoderOptions;
  }): Promise<ProviderResult> {
    const response = await postStream({
      transport,
      connection,
      url: call.url,
      headers: { ...call.headers, accept: "text/event-stream" },
      body: call.body,
      context: call.context,
    });
    return {
      kind: "stream",
      status: response.status,
      format: "anthropic-messages",
      frames: decodeSseStream(parseSseStream(response.body), createMessagesStreamDecoder(call.decoder), { secrets: [connection.credential] }),
    };
  }
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
      responses: "translated",
      embeddings: "unsupported",
    },

    async decide(request, target, context) {
      const asker = createAnthropicStatedAsker({
        transport,
        connection,
        url: apiUrl("/messages"),
        headers: headers(),
        model: target.upstreamModel,
      });
      return runTranslatedDecision({ request, target, context, asker });
    },

    async messages(body, target, context, callerHeaders) {
      const upstreamBody: Record<string, unknown> = { ...body, model: target.upstreamModel };
      const url = apiUrl("/messages");
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
      return streamMessages({ url, headers: headers(callerHeaders), body: upstreamBody, context });
    },

    async countTokens(body, target, context, callerHeaders) {
      const response = await postJson({
        transport,
        connection,
        url: apiUrl("/messages/count_tokens"),
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

    async responses(body, target, context) {
      const chatBody = translateOrThrow(connection.name, () => convertResponsesRequestToChat(body, { model: target.upstreamModel, target: "anthropic" }));
      const anthropicBody = translateOrThrow(connection.name, () =>
        convertChatRequestToAnthropic(chatBody, { defaultMaxTokens: maxTokensDefault, model: target.upstreamModel }),
      );
      const jsonResponseTool = getJsonResponseToolName(chatBody);
      const url = apiUrl("/messages");
      if (anthropicBody.stream !== true) {
        const response = await postJson({ transport, connection, url, headers: headers(), body: anthropicBody, context });
        const converted = translateOrThrow(connection.name, () => {
          const completion = convertAnthropicResponseToChat(response.body, { model: target.qualifiedModel, jsonResponseTool });
          return convertChatResponseToResponses(completion, { model: target.qualifiedModel, requestId: context.requestId, request: body });
        });
        return { kind: "json", status: response.status, body: converted, usage: normalizeMessagesUsage(response.body.usage) };
      }
      return streamMessages({ url, headers: headers(), body: anthropicBody, context, decoder: { jsonResponseTool } });
    },

    async embeddings() {
      throw new GatewayError("unsupported_feature", {
        message: `The connection '${connection.name}' (Anthropic) has no embeddings API.`,
        param: "model",
        retryable: true,
        details: { provider: connection.name },
      });
    },

    async chatCompletions(body, target, context) {
      const anthropicBody = translateOrThrow(connection.name, () =>
        convertChatRequestToAnthropic(body, { defaultMaxTokens: maxTokensDefault, model: target.upstreamModel }),
      );
      const jsonResponseTool = getJsonResponseToolName(body);
      const url = apiUrl("/messages");
      if (anthropicBody.stream !== true) {
        const response = await postJson({ transport, connection, url, headers: headers(), body: anthropicBody, context });
        const completion = translateOrThrow(connection.name, () =>
          convertAnthropicResponseToChat(response.body, { model: target.qualifiedModel, jsonResponseTool }),
        );
        return {
          kind: "json",
          status: response.status,
          body: completion,
          usage: normalizeMessagesUsage(response.body.usage),
        };
      }
      return streamMessages({ url, headers: headers(), body: anthropicBody, context, decoder: { jsonResponseTool } });
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
