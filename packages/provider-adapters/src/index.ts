// Adapters
export type {
  AdapterConnection,
  DecisionResult,
  ForwardableHeaders,
  ProviderAdapter,
  ProviderCallContext,
  ProviderCapabilities,
  ProviderKind,
  ProviderResult,
  ProviderTarget,
  TokenCount,
} from "./provider-adapter.js";
export { emptyUsage, addUsage } from "./provider-adapter.js";
export { createProviderAdapter } from "./create-provider-adapter.js";
export { createOpenAiAdapter, openAiDefaultBaseUrl } from "./openai-adapter.js";
export type { ProviderAdapterDependencies } from "./openai-adapter.js";
export { createAnthropicAdapter, anthropicDefaultBaseUrl, anthropicDefaultVersion, anthropicDefaultMaxTokens } from "./anthropic-adapter.js";
export { createSystemOneAdapter } from "./systemone-adapter.js";
export { createDemoAdapter, demoHeaderName, demoNotice } from "./demo-adapter.js";
export { connectionApiUrl } from "./connection-api-url.js";
export { modelEndpointsOf, connectionServesResponses, servesResponsesNatively, servedEndpoints } from "./model-endpoints.js";
export type { EndpointConnection, ServedEndpoint } from "./model-endpoints.js";
export { buildResponseObject, outputTextOf } from "./responses/build-response-object.js";
export type { BuildResponseObjectOptions } from "./responses/build-response-object.js";

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
export { createChatStreamDecoder } from "./stream/create-chat-stream-decoder.js";
export { createMessagesStreamDecoder } from "./stream/create-messages-stream-decoder.js";
export { createResponsesStreamDecoder } from "./stream/create-responses-stream-decoder.js";
export type { MessagesStreamDecoderOptions } from "./stream/create-messages-stream-decoder.js";
export { createStreamRenderer } from "./stream/create-stream-renderer.js";
export type { StreamRendererOptions } from "./stream/create-stream-renderer.js";

// Usage: one normalizer (and renderer) per wire format
export { normalizeChatUsage, renderChatUsage } from "./usage/chat-usage.js";
export type { ChatUsage } from "./usage/chat-usage.js";
export { normalizeMessagesUsage, renderMessagesUsage, mergeMessagesUsage } from "./usage/messages-usage.js";
export type { MessagesUsage } from "./usage/messages-usage.js";
export { normalizeDecisionUsage, renderDecisionUsage } from "./usage/decision-usage.js";
export { normalizeResponsesUsage, renderResponsesUsage } from "./usage/responses-usage.js";
export type { ResponsesUsage } from "./usage/responses-usage.js";

// Translation of requests and JSON answers between the OpenAI and Anthropic formats
export * from "./translation/index.js";
