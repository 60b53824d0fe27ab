import { runTranslatedDecision } from "../../decision/run-translated-decision.js";
import type { ChatModel, DecisionModel, ForwardableHeaders, ProviderTarget, TokenCounter } from "../../provider-adapter.js";
import { lowerCaseKeys, postJson } from "../../upstream-call.js";
import { headerValue, readInputTokens } from "../anthropic/anthropic-adapter.js";
import { createAnthropicStatedAsker } from "../anthropic/anthropic-decision-calls.js";
import { sendAnthropicMessages } from "../anthropic/send-anthropic-messages.js";
import type { HttpTransport } from "../../http-transport.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import type { VertexAccessTokens } from "./vertex-access-tokens.js";
import { vertexModelUrl } from "./vertex-model-url.js";
import { vertexPublisherModel } from "./vertex-publisher-model.js";
import type { VertexSettings } from "./vertex-settings.js";

/** The `anthropic_version` Claude on Vertex AI takes in the body (the header is not read). */
export const vertexAnthropicVersion = "vertex-2023-10-16";

/** What the Claude-on-Vertex models of a connection share. */
export interface VertexAnthropicContext {
  connection: AdapterConnection;
  settings: VertexSettings;
  transport: HttpTransport;
  tokens: VertexAccessTokens;
}

/**
 * Claude on Vertex AI: `POST .../publishers/anthropic/models/{model}:rawPredict` (JSON) or
 * `:streamRawPredict` (SSE) with a bearer token, the messages body without `model` and with
 * `anthropic_version: "vertex-2023-10-16"`; the caller's `anthropic-beta` header is forwarded
 * with a caller's body. Answers are Anthropic's, read as the Anthropic provider reads them.
 */
export function createVertexAnthropicChatModel(vertex: VertexAnthropicContext): ChatModel {
  return {
    passthrough: ["anthropic-messages"],
    maxTokensDefault: vertex.settings.defaultMaxTokens,
    async send(format, body, target, context, callerHeaders, translated) {
      if (format !== "anthropic-messages") throw new Error(`Claude on Vertex AI takes no ${format} requests.`);
      const { model } = vertexPublisherModel(target);
      const stream = body.stream === true;
      const url = vertexModelUrl({ ...vertex, publisher: "anthropic", model, method: stream ? "streamRawPredict" : "rawPredict" });
      const { headers, secrets } = await vertexHeaders(vertex, translated === undefined ? callerHeaders : undefined);
      return sendAnthropicMessages({
        transport: vertex.transport,
        connection: vertex.connection,
        url,
        headers,
        body: vertexAnthropicBody(body),
        context,
        translated,
        secrets,
      });
    },
  };
}

/** Token counts from Vertex's Claude counter: `POST .../publishers/anthropic/models/count-tokens:rawPredict`, the model named in the body. */
export function createVertexAnthropicTokenCounter(vertex: VertexAnthropicContext): TokenCounter {
  return {
    passthrough: ["anthropic-messages"],
    async countTokens(body, target, context, callerHeaders) {
      const { model } = vertexPublisherModel(target);
      const url = vertexModelUrl({ ...vertex, publisher: "anthropic", model: "count-tokens", method: "rawPredict" });
      const { headers, secrets } = await vertexHeaders(vertex, callerHeaders);
      const response = await postJson({
        transport: vertex.transport,
        connection: vertex.connection,
        url,
        headers,
        body: { ...vertexAnthropicBody(body), model },
        context,
        secrets,
      });
      return { inputTokens: readInputTokens(response.body, vertex.connection.name), local: false };
    },
  };
}

/** Decisions through a `rawPredict` call with a forced tool call that states a probability per option. */
export function createVertexAnthropicDecisionModel(vertex: VertexAnthropicContext): DecisionModel {
  return {
    passthrough: [],
    logprobs: false,
    async decide(request, target: ProviderTarget, context) {
      const { model } = vertexPublisherModel(target);
      const url = vertexModelUrl({ ...vertex, publisher: "anthropic", model, method: "rawPredict" });
      const { headers, secrets } = await vertexHeaders(vertex);
      const asker = createAnthropicStatedAsker(
        {
          transport: vertex.transport,
          connection: vertex.connection,
          url,
          headers,
          model,
        },
        { upstreamBody: vertexAnthropicBody, secrets },
      );
      return runTranslatedDecision({ request, target, context, asker });
    },
  };
}

/** A messages body as Vertex takes it: no `model` (the URL names it), `anthropic_version` in the body. */
function vertexAnthropicBody(body: Record<string, unknown>): Record<string, unknown> {
  const { model: _model, anthropic_version: _version, ...rest } = body;
  return { anthropic_version: vertexAnthropicVersion, ...rest };
}

/** The bearer token, the connection's headers and the caller's `anthropic-beta`; with the strings errors must never show. */
async function vertexHeaders(vertex: VertexAnthropicContext, callerHeaders?: ForwardableHeaders): Promise<{ headers: Record<string, string>; secrets: string[] }> {
  const token = await vertex.tokens.token();
  const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${token}`, ...lowerCaseKeys(vertex.connection.headers) };
  const beta = headerValue(callerHeaders, "anthropic-beta");
  if (beta !== undefined) headers["anthropic-beta"] = beta;
  return { headers, secrets: [token, ...vertex.tokens.secrets] };
}
