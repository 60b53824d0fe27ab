import { GatewayError } from "@gateway/errors";
import { callChatModel } from "../../call-chat-model.js";
import type { ChatModel, DecisionModel, ProviderTarget, TokenCounter } from "../../provider-adapter.js";
import { type VertexPublisher, vertexPublisherModel } from "./vertex-publisher-model.js";

/** A capability's model per publisher; a publisher without one does not serve the capability on Vertex. */
export type VertexPublisherModels<Model> = Partial<Record<VertexPublisher, Model>>;

/**
 * The chat model of a `vertex` connection: routes each call by the target's publisher
 * (`anthropic/*`: Claude, `google/*`: Gemini) to that publisher's chat model, which passes
 * through or translates as it does alone (`callChatModel`): Claude passes messages through and
 * has chat completions and Responses translated to messages. Every request is handed on as the
 * caller wrote it (`passesThrough` is true for every format), so the publisher's model decides.
 */
export function createVertexChatModel(models: VertexPublisherModels<ChatModel>, maxTokensDefault: number): ChatModel {
  return {
    passthrough: ["anthropic-messages"],
    maxTokensDefault,
    passesThrough: () => true,
    send(format, body, target, context, headers) {
      const [model, publisherTarget] = publisherModel(models, target, "chat");
      return callChatModel(model, format, body, publisherTarget, context, headers);
    },
  };
}

/** Token counting routed by publisher (see {@link createVertexChatModel}). */
export function createVertexTokenCounter(models: VertexPublisherModels<TokenCounter>): TokenCounter {
  return {
    passthrough: ["anthropic-messages"],
    countTokens(body, target, context, headers) {
      const [model, publisherTarget] = publisherModel(models, target, "token counting");
      return model.countTokens(body, publisherTarget, context, headers);
    },
  };
}

/** Decisions routed by publisher (see {@link createVertexChatModel}). */
export function createVertexDecisionModel(models: VertexPublisherModels<DecisionModel>): DecisionModel {
  return {
    passthrough: [],
    logprobs: false,
    decide(request, target, context) {
      const [model, publisherTarget] = publisherModel(models, target, "decisions");
      return model.decide(request, publisherTarget, context);
    },
  };
}

/**
 * The publisher's model of a target, and the target as that model sees it: the upstream model is
 * the Vertex model id (`gemini-2.5-flash`, without the vendor the gateway's names carry).
 */
function publisherModel<Model>(models: VertexPublisherModels<Model>, target: ProviderTarget, capability: string): [Model, ProviderTarget] {
  const { publisher, model: modelId } = vertexPublisherModel(target);
  const model = models[publisher];
  if (model !== undefined) return [model, modelId === target.upstreamModel ? target : { ...target, upstreamModel: modelId }];
  const provider = target.connection.name;
  throw new GatewayError("unsupported_feature", {
    message: `The connection '${provider}' (Vertex AI) does not serve ${capability} for ${publisher}/* models.`,
    param: "model",
    retryable: true,
    details: { provider },
  });
}
