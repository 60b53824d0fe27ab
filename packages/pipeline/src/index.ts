// The inference-call skeleton and its endpoints
export { runInferenceCall } from "./call/run-inference-call.js";
export type { InferenceCallInput } from "./call/run-inference-call.js";
export type { AdmissionEstimate, EndpointAnswer, EndpointInvocation, EndpointPrepareInput, InferenceEndpoint, PreparedRequest } from "./call/inference-endpoint.js";
export { modelRouter } from "./call/call-router.js";
export type { CallRouteInput, CallRouter, EndpointAdapter } from "./call/call-router.js";
export type { PipelineDependencies } from "./call/pipeline-dependencies.js";
export { combineCallObservers } from "./call/inference-call-observer.js";
export type {
  InferenceCallObservation,
  InferenceCallObserver,
  ObservedAttempt,
  ObservedAttemptEnd,
  ObservedAttemptKind,
  ObservedCallEnd,
  ObservedCallStart,
} from "./call/inference-call-observer.js";
export type { PipelineCallResponse, PipelineJsonResponse, PipelineStreamResponse } from "./call/pipeline-response.js";
export { renderErrorResponse } from "./call/render-error-response.js";
export type { ErrorFormat } from "./call/render-error-response.js";
export { chatCompletionsEndpoint, messagesEndpoint } from "./endpoints/chat-endpoints.js";
export { countTokensEndpoint, tokenCountSourceHeader, tokenCountAccuracyHeader } from "./endpoints/count-tokens-endpoint.js";
export { decisionEndpoint } from "./endpoints/decision-endpoint.js";
export { createResponsesEndpoint, defaultResponseRetentionMs } from "./endpoints/responses-endpoint.js";
export type { ResponsesEndpointOptions } from "./endpoints/responses-endpoint.js";
export type { ResponsesBody } from "./endpoints/parse-responses-body.js";
export { embeddingsEndpoint } from "./endpoints/embeddings-endpoint.js";
export { maxRequestInteger, requestNumberFields } from "./endpoints/request-number-fields.js";
export type { RequestNumberFields } from "./endpoints/request-number-fields.js";
export type { EmbeddingsBody } from "./endpoints/embeddings-endpoint.js";
export { runStoredResponseRequest } from "./endpoints/run-stored-response-request.js";
export type { StoredResponseRequestInput } from "./endpoints/run-stored-response-request.js";
export { runListModels } from "./endpoints/run-list-models.js";
export type { ListModelsInput } from "./endpoints/run-list-models.js";
export { createPlaygroundRunner } from "./endpoints/create-playground-runner.js";
export type { PlaygroundChatInput, PlaygroundResult, PlaygroundRunner } from "./endpoints/create-playground-runner.js";
export { createMcpCallEndpoint, defaultMcpResultLimitBytes } from "./endpoints/mcp-call-endpoint.js";
export { createMcpCallRouter, isMcpServerUsable } from "./mcp/mcp-call-router.js";
export type { McpCallRequest, McpCallTarget } from "./mcp/mcp-call-router.js";

// MCP: authentication, served names, the upstream the MCP call endpoint needs
export { authenticateMcpCaller, mcpTokenPrefix } from "./mcp/authenticate-mcp-caller.js";
export {
  mcpNameSeparator,
  mcpResourceScheme,
  parseServedMcpName,
  parseServedMcpResourceUri,
  servedMcpName,
  servedMcpResourceTemplate,
  servedMcpResourceUri,
} from "./mcp/mcp-server-directory.js";
export type { McpServerDirectory } from "./mcp/mcp-server-directory.js";
export type { McpListedNames, McpUpstream, McpUpstreamCall } from "./mcp/mcp-upstream.js";

// Stages other entry points reuse
export type { CallerIdentity } from "./stages/authenticate.js";
export type { CallTarget } from "./stages/call-target.js";
export type { RoutePlan } from "./stages/resolve-route.js";
export type { RequestHeaders } from "./stages/request-headers.js";

// Runtime: the long-lived parts an app wires once
export { generateRequestId } from "./runtime/generate-request-id.js";
export { compileSnapshot } from "./runtime/compile-snapshot.js";
export type { CompiledSnapshot } from "./runtime/compile-snapshot.js";
export { createSnapshotHolder } from "./runtime/snapshot-holder.js";
export type { SnapshotHolder, SnapshotHolderSettings, SnapshotReloadDetails, SnapshotReloadReason } from "./runtime/snapshot-holder.js";
export type { ControlPlaneAnnouncement, ControlPlaneDeltaSource, ControlPlaneSource } from "./runtime/control-plane-source.js";
export { ApiKeyStore } from "./runtime/api-key-store.js";
export type { ApiKeyStoreReload } from "./runtime/api-key-store.js";
export { checkReadiness } from "./runtime/check-readiness.js";
export type { ReadinessCheck, ReadinessReport } from "./runtime/check-readiness.js";
export { createMemoryResponseStore } from "./runtime/response-store.js";
export type { ResponseStore, StoredResponse } from "./runtime/response-store.js";
export { createUsageQueue } from "./runtime/usage-queue.js";
export type { UsageQueue, UsageQueueSettings } from "./runtime/usage-queue.js";
export type { UsageSink, UsageWriteOptions } from "./runtime/usage-sink.js";
export { createApiKeyActivity } from "./runtime/api-key-activity.js";
export type { ApiKeyActivity, ApiKeyActivitySettings } from "./runtime/api-key-activity.js";
export { openUsageJournal } from "./runtime/usage-journal.js";
export type { UsageJournal, UsageJournalSettings } from "./runtime/usage-journal.js";
export { createAdapterRegistry } from "./runtime/adapter-registry.js";
export type { AdapterRegistry } from "./runtime/adapter-registry.js";
export { createRedisAffinityStore } from "./runtime/redis-affinity-store.js";
export type { RedisAffinityStoreSettings } from "./runtime/redis-affinity-store.js";
export { announceControlPlaneChange, controlPlaneChannelName, createControlPlaneChangeChannel } from "./runtime/control-plane-change-channel.js";
export type {
  AnnounceControlPlaneChangeOptions,
  ControlPlaneChangeChannel,
  ControlPlaneChangeChannelSettings,
} from "./runtime/control-plane-change-channel.js";
export { createNotificationGate } from "./runtime/notification-gate.js";
export type { NotificationGate } from "./runtime/notification-gate.js";
export { notifyAdmissionRefusals } from "./runtime/notify-admission-refusals.js";

// Delivery of usage traces and notifications (both apps)
export { createDeliveryDispatcher } from "./delivery/create-delivery-dispatcher.js";
export type { DeliveryDispatcher, DeliveryReport, DeliveryTargets } from "./delivery/create-delivery-dispatcher.js";
export { deliverNotification } from "./delivery/deliver-notification.js";
export { deliverTelemetry } from "./delivery/deliver-telemetry.js";
export type { NotificationEvent, NotificationMailer } from "./delivery/deliver-notification.js";
export { createBudgetThresholdEvent } from "./delivery/limit-notification-events.js";
export { createMcpAuthorizationFailedEvent } from "./delivery/mcp-notification-events.js";
export { buildOtlpTraceRequest, createTraceId } from "./delivery/build-otlp-trace-request.js";
export { postJson } from "./delivery/post-json.js";
export { usageEventAttributes } from "./delivery/usage-event-span.js";
export type { DeliveryTelemetryDestination } from "./delivery/create-delivery-dispatcher.js";
export type { DeliveryOutcome, PostJsonOptions } from "./delivery/post-json.js";
export { signWebhookPayload, verifyWebhookSignature, webhookSignatureHeader } from "./delivery/sign-webhook-payload.js";
