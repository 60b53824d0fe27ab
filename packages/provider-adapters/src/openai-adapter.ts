import { GatewayError } from "@gateway/errors";
import { createOpenAiLabelAsker, createOpenAiStatedAsker } from "./decision/openai-decision-calls.js";
import { runTranslatedDecision } from "./decision/run-translated-decision.js";
import type { HttpTransport } from "./http-transport.js";
import { normalizeOpenAiUsage } from "./normalize-usage.js";
import type { NormalizedUsage, ProviderAdapter, SnapshotConnection, SseEvent } from "./provider-adapter.js";
import { emptyUsage } from "./provider-adapter.js";
import { countTokensLocally, parseSseStream } from "./translation/index.js";
import { baseUrlOf, joinUrl, lowerCaseKeys, postJson, postStream, tryParseJson } from "./upstream-call.js";

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
 * - `countTokens` counts locally (`countTokensLocally`, the model family's tokenizer).
 * - `messages` (Anthropic format) is not wired to the translation yet (`unsupported_feature`).
 */
export function createOpenAiAdapter(connection: SnapshotConnection, dependencies: ProviderAdapterDependencies): ProviderAdapter {
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
      messages: "unsupported",
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
        return { kind: "json", status: response.status, body: response.body, usage: normalizeOpenAiUsage(response.body.usage) };
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
              usage = normalizeOpenAiUsage(chunk.usage);
              const usageOnly = Array.isArray(chunk.choices) && chunk.choices.length === 0;
              if (usageOnly && !callerWantsUsage) continue;
            }
          }
          yield event;
        }
      }
      return { kind: "stream", status: response.status, events: events(), usage: () => usage };
    },

    async messages() {
      throw new GatewayError("unsupported_feature", {
        message: `The Anthropic messages format is not available for the OpenAI-compatible connection '${connection.name}' yet (translation not wired).`,
        details: { retryable: true, provider: connection.name },
      });
    },

    async countTokens(body, target) {
      const count = await countTokensLocally(body, target.upstreamModel);
      return { inputTokens: count.inputTokens, local: true };
    },
  };
}

function rejectsLogprobs(error: unknown): boolean {
  return GatewayError.isInstance(error) && error.code === "invalid_request" && /logprobs/i.test(error.message);
}
