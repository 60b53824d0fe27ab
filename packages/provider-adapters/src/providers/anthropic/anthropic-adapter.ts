import { createAnthropicStatedAsker } from "./anthropic-decision-calls.js";
import { runTranslatedDecision } from "../../decision/run-translated-decision.js";
import type { AdapterConnection, ChatModel, DecisionModel, ForwardableHeaders, TokenCounter } from "../../provider-adapter.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { apiUrlOf, lowerCaseKeys, malformedAnswer, postJson } from "../../upstream-call.js";
import { sendAnthropicMessages } from "./send-anthropic-messages.js";

/** Default base URL of `anthropic` connections without one. */
export const anthropicDefaultBaseUrl = "https://api.anthropic.com";

/** The `anthropic-version` sent when the caller gives none. */
export const anthropicDefaultVersion = "2023-06-01";

/** The settings an `anthropic` connection reads. */
export interface AnthropicSettings {
  /** `max_tokens` of translated requests without an output cap. */
  defaultMaxTokens: number;
}

/** `anthropic-version` and, when the connection has a credential, `x-api-key`. */
export function anthropicCredentialHeaders(credential: string | null): Record<string, string> {
  return { "anthropic-version": anthropicDefaultVersion, ...(credential ? { "x-api-key": credential } : {}) };
}

/** The headers of an upstream call: ours, the connection's, and the caller's `anthropic-version` / `anthropic-beta`. */
function anthropicHeaders(connection: AdapterConnection, callerHeaders?: ForwardableHeaders): Record<string, string> {
  const result: Record<string, string> = {
    accept: "application/json",
    ...anthropicCredentialHeaders(connection.credential),
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

/**
 * The chat model of the Anthropic Messages API: `POST {baseUrl}/v1/messages` (base URL with or
 * without `/v1`) with `x-api-key`, `anthropic-version` (the caller's, else 2023-06-01), the
 * caller's `anthropic-beta` and the connection's extra headers.
 *
 * Messages requests pass through (JSON answers as the provider's bytes; a stream decoded into
 * typed parts once, as `anthropic-messages` frames whose provider bytes the caller's renderer
 * forwards; usage from `message_start` and the cumulative `message_delta` usage, cache tokens
 * included). Chat completions and Responses requests are translated to messages
 * (`callChatModel`; `max_tokens` defaults to the connection's `defaultMaxTokens`, else 4096), sent
 * with our headers only; a translated `response_format` tool is decoded as text in streams.
 */
export function createAnthropicChatModel(connection: AdapterConnection, settings: AnthropicSettings, dependencies: ProviderAdapterDependencies): ChatModel {
  const { transport } = dependencies;
  return {
    passthrough: ["anthropic-messages"],
    maxTokensDefault: settings.defaultMaxTokens,
    async send(format, body, target, context, callerHeaders, translated) {
      if (format !== "anthropic-messages") throw new Error(`An Anthropic chat model sends no ${format} requests.`);
      // A translated body is the gateway's own, the upstream model already in it; the caller's headers go with the caller's body only.
      const upstreamBody: Record<string, unknown> = translated !== undefined ? body : { ...body, model: target.upstreamModel };
      const headers = anthropicHeaders(connection, translated !== undefined ? undefined : callerHeaders);
      const url = apiUrlOf(connection, "/messages", anthropicDefaultBaseUrl);
      return sendAnthropicMessages({ transport, connection, url, headers, body: upstreamBody, context, translated });
    },
  };
}

/** Token counts are the upstream's: `POST {baseUrl}/v1/messages/count_tokens`, the caller's body and headers passed on. */
export function createAnthropicTokenCounter(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): TokenCounter {
  return {
    passthrough: ["anthropic-messages"],
    async countTokens(body, target, context, callerHeaders) {
      const response = await postJson({
        transport: dependencies.transport,
        connection,
        url: apiUrlOf(connection, "/messages/count_tokens", anthropicDefaultBaseUrl),
        headers: anthropicHeaders(connection, callerHeaders),
        body: { ...body, model: target.upstreamModel },
        context,
      });
      return { inputTokens: readInputTokens(response.body, connection.name), local: false };
    },
  };
}

/** The `input_tokens` of a `count_tokens` answer; 502 `upstream_error` when it has none. */
export function readInputTokens(answer: Record<string, unknown>, provider: string): number {
  const inputTokens = answer.input_tokens;
  if (typeof inputTokens !== "number" || !Number.isInteger(inputTokens) || inputTokens < 0) {
    throw malformedAnswer(provider, "has no valid input_tokens");
  }
  return inputTokens;
}

/** Decisions through a messages call with a forced tool call that states a probability per option. */
export function createAnthropicDecisionModel(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): DecisionModel {
  return {
    passthrough: [],
    logprobs: false,
    async decide(request, target, context) {
      const asker = createAnthropicStatedAsker({
        transport: dependencies.transport,
        connection,
        url: apiUrlOf(connection, "/messages", anthropicDefaultBaseUrl),
        headers: anthropicHeaders(connection),
        model: target.upstreamModel,
      });
      return runTranslatedDecision({ request, target, context, asker });
    },
  };
}

/** A caller header's value (lists joined with commas); undefined when absent or empty. */
export function headerValue(headers: ForwardableHeaders | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.join(",");
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}
