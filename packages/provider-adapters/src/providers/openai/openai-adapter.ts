import { GatewayError } from "@gateway/errors";
import { copyFields } from "../../copy-fields.js";
import { createOpenAiLabelAsker, createOpenAiStatedAsker } from "./openai-decision-calls.js";
import { runTranslatedDecision } from "../../decision/run-translated-decision.js";
import type { HttpTransport } from "../../http-transport.js";
import type {
  AdapterConnection,
  ChatModel,
  DecisionModel,
  EmbeddingModel,
  ProviderCallContext,
  ProviderResult,
  TokenCounter,
} from "../../provider-adapter.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { bearerCredentialHeaders } from "../bearer-credential-headers.js";
import { servesResponsesNatively } from "../../model-endpoints.js";
import { createChatStreamDecoder } from "../../formats/chat-completions/create-chat-stream-decoder.js";
import { createResponsesStreamDecoder } from "../../formats/responses/create-responses-stream-decoder.js";
import { decodeSseStream } from "../../stream/decode-sse-stream.js";
import { parseSseStream } from "../../stream/parse-sse-stream.js";
import { countTokensLocally } from "../../token-counting/count-tokens-locally.js";
import { apiUrlOf, lowerCaseKeys, postJson, postStream, servedModelOf, translateOrThrowAsync } from "../../upstream-call.js";
import { normalizeChatUsage } from "../../formats/chat-completions/chat-usage.js";
import { normalizeResponsesUsage } from "../../formats/responses/responses-usage.js";

/** Default base URL of `openai` connections without one. */
export const openAiDefaultBaseUrl = "https://api.openai.com/v1";

/** The settings an `openai` connection reads. */
export interface OpenAiSettings {
  /** False when the upstream rejects `logprobs` (decisions then use stated probabilities). */
  logprobs: boolean;
}

/** The upstream calls every OpenAI model shares. */
function openAiCalls(connection: AdapterConnection, transport: HttpTransport) {
  const headers = (): Record<string, string> => ({
    accept: "application/json",
    ...bearerCredentialHeaders(connection.credential),
    ...lowerCaseKeys(connection.headers),
  });
  const url = (path: string) => apiUrlOf(connection, path, openAiDefaultBaseUrl);
  return { headers, url };
}

/**
 * The chat model of any OpenAI-compatible API: `POST {baseUrl}/chat/completions` with
 * `Authorization: Bearer <credential>` and the connection's extra headers.
 *
 * - Chat completions pass through: the body goes upstream untouched except `model`. For
 *   streams the model forces `stream_options.include_usage: true` upstream so usage is always
 *   known (billing); the chunks are decoded into typed parts once (`openai-chat` frames), and the
 *   caller's renderer forwards the provider's bytes (leaving out the usage-only chunk when the
 *   caller did not ask for it).
 * - Responses pass through (`POST {baseUrl}/responses`, the body with the upstream model and
 *   `store: false`; streams decoded as `openai-responses` frames) for models that answer the
 *   Responses API on a connection that serves it (`servesResponsesNatively`); other Responses
 *   requests, and messages requests, are translated to chat completions (`callChatModel`).
 */
export function createOpenAiChatModel(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): ChatModel {
  const { headers, url } = openAiCalls(connection, dependencies.transport);

  async function post(path: string, upstreamBody: Record<string, unknown>, format: "openai-chat" | "openai-responses", context: ProviderCallContext, passthrough: boolean): Promise<ProviderResult> {
    if (upstreamBody.stream !== true) {
      const response = await postJson({ transport: dependencies.transport, connection, url: url(path), headers: headers(), body: upstreamBody, context });
      const usage = format === "openai-chat" ? normalizeChatUsage(response.body.usage) : normalizeResponsesUsage(response.body.usage);
      return passthrough
        ? { kind: "json", status: response.status, body: response.body, bodyText: response.text, usage }
        : { kind: "json", status: response.status, body: response.body, usage };
    }
    const response = await postStream({
      transport: dependencies.transport,
      connection,
      url: url(path),
      headers: { ...headers(), accept: "text/event-stream" },
      body: upstreamBody,
      context,
    });
    const decoder = format === "openai-chat" ? createChatStreamDecoder() : createResponsesStreamDecoder();
    return { kind: "stream", status: response.status, format, frames: decodeSseStream(parseSseStream(response.body), decoder, { secrets: [connection.credential] }) };
  }

  return {
    passthrough: ["openai-chat", "openai-responses"],
    passesThrough(format, target) {
      if (format === "openai-chat") return true;
      return format === "openai-responses" && servesResponsesNatively(connection, servedModelOf(target));
    },
    async send(format, body, target, context, _headers, translated) {
      if (format === "openai-responses") {
        const upstreamBody = copyFields(body);
        upstreamBody.model = target.upstreamModel;
        upstreamBody.store = false;
        return post("/responses", upstreamBody, "openai-responses", context, true);
      }
      if (format !== "openai-chat") throw new Error(`An OpenAI chat model sends no ${format} requests.`);
      // A translated body is the gateway's own (its usage chunk already asked for).
      if (translated !== undefined) return post("/chat/completions", body, "openai-chat", context, false);
      const upstreamBody = copyFields(body);
      upstreamBody.model = target.upstreamModel;
      if (body.stream === true) {
        // Usage arrives only in a final chunk, and only when asked for: always ask (billing). The
        // caller's renderer leaves that chunk out when the caller did not ask for it.
        const callerOptions = body.stream_options;
        const streamOptions = typeof callerOptions === "object" && callerOptions !== null ? copyFields(callerOptions as Record<string, unknown>) : {};
        streamOptions.include_usage = true;
        upstreamBody.stream_options = streamOptions;
      }
      return post("/chat/completions", upstreamBody, "openai-chat", context, true);
    },
  };
}

/** Embeddings pass through: `POST {baseUrl}/embeddings`, the body with the upstream model. */
export function createOpenAiEmbeddingModel(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): EmbeddingModel {
  const { headers, url } = openAiCalls(connection, dependencies.transport);
  return {
    passthrough: ["openai-embeddings"],
    async embed(body, target, context) {
      const response = await postJson({
        transport: dependencies.transport,
        connection,
        url: url("/embeddings"),
        headers: headers(),
        body: { ...body, model: target.upstreamModel },
        context,
      });
      return { kind: "json", status: response.status, body: response.body, bodyText: response.text, usage: normalizeChatUsage(response.body.usage) };
    },
  };
}

/**
 * Token counts are the gateway's (`countTokensLocally`: the Anthropic `count_tokens` body is
 * translated as a messages request would be, then counted with the model family's tokenizer);
 * the answer says `local: true` and whether the count is `exact`.
 */
export function createOpenAiTokenCounter(connection: AdapterConnection): TokenCounter {
  return {
    passthrough: [],
    async countTokens(body, target) {
      const count = await translateOrThrowAsync(connection.name, () => countTokensLocally(body, target.upstreamModel));
      return { inputTokens: count.inputTokens, local: true, exact: count.exact };
    },
  };
}

/**
 * Decisions through chat calls: single-token labels with `logprobs` (or, when the connection says
 * `logprobs: false`, a JSON-schema probability map). When the upstream answers 400 with a message
 * naming `logprobs`, the request is answered again with the probability map.
 */
export function createOpenAiDecisionModel(connection: AdapterConnection, settings: OpenAiSettings, dependencies: ProviderAdapterDependencies): DecisionModel {
  const { headers, url } = openAiCalls(connection, dependencies.transport);
  return {
    passthrough: [],
    logprobs: settings.logprobs,
    async decide(request, target, context) {
      const call = { transport: dependencies.transport, connection, url: url("/chat/completions"), headers: headers(), model: target.upstreamModel };
      if (!settings.logprobs) return runTranslatedDecision({ request, target, context, asker: createOpenAiStatedAsker(call) });
      try {
        return await runTranslatedDecision({ request, target, context, asker: createOpenAiLabelAsker(call) });
      } catch (error) {
        // Models that reject `logprobs` (reasoning models) answer 400 naming it: fall back to
        // stated probabilities for this request.
        if (!rejectsLogprobs(error)) throw error;
        return runTranslatedDecision({ request, target, context, asker: createOpenAiStatedAsker(call) });
      }
    },
  };
}

function rejectsLogprobs(error: unknown): boolean {
  return GatewayError.isInstance(error) && error.code === "invalid_request" && /logprobs/i.test(error.message);
}
