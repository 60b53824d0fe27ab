// Per-capability models: what one provider connection can do
export type {
  AdapterConnection,
  ChatFormat,
  ChatModel,
  ChatModelAnswer,
  DecisionModel,
  DecisionResult,
  EmbeddingModel,
  ForwardableHeaders,
  ProviderAdapter,
  ProviderCallContext,
  ProviderKind,
  ProviderResult,
  ProviderTarget,
  RequestBody,
  TokenCount,
  TokenCounter,
  TranslatedChatCall,
} from "./provider-adapter.js";
export { emptyUsage, addUsage } from "./provider-adapter.js";
export type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionUsage,
  ChatContent,
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatResponseFormat,
  ChatTokenLogprob,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from "./chat-request.js";
export { callChatModel, chatModelOf, unsupportedCapability } from "./call-chat-model.js";

// Providers: one folder each under src/providers/, registered from the folders
export type { ConnectionTestRequest, ModelFactory, ProviderAdapterDependencies, ProviderDefinition } from "./providers/provider-definition.js";
export { defineProvider } from "./providers/provider-definition.js";
export { createProviderAdapter, providerOf, providerSettingsOf, registeredProviderList } from "./providers/provider-registry.js";
export { checkConnectionSettings, connectionSettingsInputSchema, noConnectionSettingsSchema } from "./providers/connection-settings.js";
export type { ConnectionSettingsIssue } from "./providers/connection-settings.js";
export { providerKinds, providerKindSchema } from "./providers/provider-kinds.js";
export type { RegisteredProviderKind } from "./providers/provider-kinds.js";
export { openAiDefaultBaseUrl } from "./providers/openai/openai-adapter.js";
export { anthropicDefaultBaseUrl, anthropicDefaultVersion } from "./providers/anthropic/anthropic-adapter.js";
export { anthropicDefaultMaxTokens } from "./providers/anthropic/provider.js";
export { createDemoAdapter, demoHeaderName, demoNotice } from "./providers/demo/demo-adapter.js";
export { connectionApiUrl } from "./providers/provider-registry.js";
export { resolveApiUrl } from "./connection-api-url.js";
export { modelEndpointsOf, servesResponsesNatively } from "./model-endpoints.js";
export { connectionServesResponses, servedEndpoints } from "./providers/served-endpoints.js";
export type { EndpointConnection, ServedEndpoint } from "./model-endpoints.js";

// Transport
export { createHttpTransport } from "./http-transport.js";
export { CallAbort, callAbortFollowing } from "./call-abort.js";
export type { HttpTransport, HttpTransportOptions, HttpRequestOptions, HttpJsonResponse, HttpStreamResponse } from "./http-transport.js";
export { mapUpstreamError } from "./map-upstream-error.js";

// Outbound address policy: which addresses the services may connect to
export { classifyAddress } from "./outbound/classify-address.js";
export type { AddressCategory } from "./outbound/classify-address.js";
export {
  checkOutboundAddress,
  checkOutboundHost,
  checkOutboundUrl,
  defaultOutboundAddressPolicy,
  outboundAddressPolicyFromEnvironment,
  outboundPrivateAddressesVariable,
} from "./outbound/outbound-address-policy.js";
export type { OutboundAddressPolicy, OutboundAddressRefusal, OutboundAddressRule } from "./outbound/outbound-address-policy.js";
export { OutboundAddressRefusedError } from "./outbound/outbound-address-refused-error.js";
export { createOutboundLookup } from "./outbound/create-outbound-lookup.js";
export type { OutboundLookupOptions } from "./outbound/create-outbound-lookup.js";
export { createOutboundConnector } from "./outbound/create-outbound-connector.js";
export type { OutboundConnectorOptions } from "./outbound/create-outbound-connector.js";
export { createOutboundFetch, defaultOutboundFetch } from "./outbound/create-outbound-fetch.js";
export type { OutboundFetchOptions } from "./outbound/create-outbound-fetch.js";
export type { UpstreamErrorInput } from "./map-upstream-error.js";

// Streams: typed parts, decoders (upstream bytes -> parts) and renderers (parts -> a caller's format)
export type { StreamDecoder, StreamFormat, StreamFrame, StreamPart, StreamRenderer } from "./stream/stream-part.js";
export { errorFrame } from "./stream/stream-part.js";
export type { SseEvent } from "./stream/sse-event.js";
export { parseSseStream } from "./stream/parse-sse-stream.js";
export { formatSseEvent } from "./stream/format-sse-event.js";
export { decodeSseStream } from "./stream/decode-sse-stream.js";
export { createStreamRenderer } from "./formats/create-stream-renderer.js";
export type { StreamRendererOptions } from "./formats/create-stream-renderer.js";

// Wire formats: one module each (request and answer texts, translation, stream decoder / encoder /
// passthrough renderer, usage, finish reasons)
export { chatCompletionsFormat } from "./formats/chat-completions/chat-completions-format.js";
export { messagesFormat } from "./formats/messages/messages-format.js";
export { responsesFormat } from "./formats/responses/responses-format.js";
export { embeddingsFormat } from "./formats/embeddings/embeddings-format.js";
export { decisionsFormat } from "./formats/decisions/decisions-format.js";
export { mcpResultsFormat } from "./formats/mcp-results/mcp-results-format.js";
export { formatOfRequest, formatOfStream } from "./formats/request-formats.js";
export type { FormatTexts, RequestFormat } from "./formats/format-texts.js";
export { writeTextSegments } from "./formats/text-segments.js";
export type { TextSegment } from "./formats/text-segments.js";
export type { ConversationMessage, ConversationPart } from "./formats/conversation-messages.js";
export type { AnswerLocation, DecodedAnswer, OpaqueAnswerItem } from "./formats/decoded-answer.js";
export type { ChatUsage } from "./formats/chat-completions/chat-usage.js";
export type { MessagesUsage } from "./formats/messages/messages-usage.js";
export type { ResponsesUsage } from "./formats/responses/responses-usage.js";
export type { ChatFinishReason } from "./formats/messages/map-anthropic-stop-reason.js";
export type { AnthropicStopReason } from "./formats/chat-completions/map-chat-finish-reason.js";

// Token counting without the provider (count_tokens on connections that have no endpoint for it)
export { countTokensLocally, selectLocalTokenizer } from "./token-counting/count-tokens-locally.js";
export type { LocalTokenCount, LocalTokenizer } from "./token-counting/count-tokens-locally.js";
