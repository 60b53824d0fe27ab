import { callChatModel, chatModelOf, unsupportedCapability } from "../src/call-chat-model.js";
import type {
  DecisionResult,
  ForwardableHeaders,
  ProviderAdapter,
  ProviderCallContext,
  ProviderResult,
  ProviderTarget,
  TokenCount,
} from "../src/provider-adapter.js";
import type { DecisionRequest } from "../src/decision/decision-contract.js";

// The endpoints' calls of a connection's models, as the pipeline makes them (tests of one provider).

/** `/v1/chat/completions`: an OpenAI chat completions body. */
export async function chatCompletions(adapter: ProviderAdapter, body: Record<string, unknown>, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  return callChatModel(chatModelOf(adapter, target), "openai-chat", body, target, context);
}

/** `/v1/messages`: an Anthropic messages body and the caller's headers. */
export async function messages(
  adapter: ProviderAdapter,
  body: Record<string, unknown>,
  target: ProviderTarget,
  context: ProviderCallContext,
  headers?: ForwardableHeaders,
): Promise<ProviderResult> {
  return callChatModel(chatModelOf(adapter, target), "anthropic-messages", body, target, context, headers);
}

/** `/v1/responses`: an OpenAI Responses body. */
export async function responses(adapter: ProviderAdapter, body: Record<string, unknown>, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  return callChatModel(chatModelOf(adapter, target), "openai-responses", body, target, context);
}

/** `/v1/embeddings`. */
export async function embeddings(adapter: ProviderAdapter, body: Record<string, unknown>, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  const model = adapter.embeddings ?? unsupportedCapability(target, "embeddings");
  return model.embed(body, target, context);
}

/** `/v1/messages/count_tokens`. */
export async function countTokens(
  adapter: ProviderAdapter,
  body: Record<string, unknown>,
  target: ProviderTarget,
  context: ProviderCallContext,
  headers?: ForwardableHeaders,
): Promise<TokenCount> {
  const counter = adapter.tokenCounter ?? unsupportedCapability(target, "token counting");
  return counter.countTokens(body, target, context, headers);
}

/** `/v1/systemone`. */
export async function decide(adapter: ProviderAdapter, request: DecisionRequest, target: ProviderTarget, context: ProviderCallContext): Promise<DecisionResult> {
  const model = adapter.decisions ?? unsupportedCapability(target, "decisions");
  return model.decide(request, target, context);
}
