export type {
  ProviderKind,
  AdapterConnection,
  ProviderCallContext,
  ProviderTarget,
  SseEvent,
  ProviderResult,
  ProviderCapabilities,
  ForwardableHeaders,
  DecisionResult,
  ProviderAdapter,
  TokenCount,
} from "./provider-adapter.js";
export { emptyUsage, addUsage } from "./provider-adapter.js";
export { createHttpTransport } from "./http-transport.js";
export type {
  HttpTransport,
  HttpTransportOptions,
  HttpRequestOptions,
  HttpJsonResponse,
  HttpStreamResponse,
} from "./http-transport.js";
export { mapUpstreamError } from "./map-upstream-error.js";
export type { UpstreamErrorInput } from "./map-upstream-error.js";
export { createProviderAdapter } from "./create-provider-adapter.js";
export { createOpenAiAdapter, openAiDefaultBaseUrl } from "./openai-adapter.js";
export type { ProviderAdapterDependencies } from "./openai-adapter.js";
export {
  createAnthropicAdapter,
  anthropicDefaultBaseUrl,
  anthropicDefaultVersion,
  anthropicDefaultMaxTokens,
} from "./anthropic-adapter.js";
export { createSystemOneAdapter } from "./systemone-adapter.js";
export { createDemoAdapter, demoHeaderName, demoNotice } from "./demo-adapter.js";
export { normalizeChatUsage, renderChatUsage } from "./usage/chat-usage.js";
export type { ChatUsage } from "./usage/chat-usage.js";
export { normalizeMessagesUsage, renderMessagesUsage } from "./usage/messages-usage.js";
export type { MessagesUsage } from "./usage/messages-usage.js";
export { normalizeDecisionUsage, renderDecisionUsage } from "./usage/decision-usage.js";
export type { DecisionUsage } from "./usage/decision-usage.js";
export { mergeLabelLogprobs } from "./decision/merge-label-logprobs.js";
export type { TokenLogprob } from "./decision/merge-label-logprobs.js";
export {
  checkTranslatableDecision,
  translatableRequestProperties,
  translatableQuestionProperties,
} from "./decision/check-translatable-decision.js";
export { maxLabelsPerCall, groupCoverage } from "./decision/decide-with-logprobs.js";
export { probabilityToolName } from "./decision/anthropic-decision-calls.js";
export * from "./translation/index.js";
