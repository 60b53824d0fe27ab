export type { ControlPlaneSource } from "./runtime/control-plane-source.js";
export type { UsageSink } from "./runtime/usage-sink.js";
export { compileSnapshot } from "./runtime/compile-snapshot.js";
export type { CompiledSnapshot } from "./runtime/compile-snapshot.js";
export { createSnapshotHolder } from "./runtime/snapshot-holder.js";
export type { SnapshotHolder, SnapshotHolderSettings, SnapshotReloadReason } from "./runtime/snapshot-holder.js";
export { createUsageQueue } from "./runtime/usage-queue.js";
export type { UsageQueue, UsageQueueSettings } from "./runtime/usage-queue.js";
export { generateRequestId } from "./runtime/generate-request-id.js";
export { readHeader } from "./stages/request-headers.js";
export type { RequestHeaders } from "./stages/request-headers.js";
export { createRequestContext, maxTraceIdLength } from "./stages/request-context.js";
export type { RequestContext, CreateRequestContextOptions } from "./stages/request-context.js";
export { isValidClientLabel, detectClientLabel, resolveClientLabel } from "./stages/client-label.js";
export {
  authenticate,
  authenticateSecret,
  hashGatewayApiKey,
  identityForApiKeyId,
  readGatewayApiKey,
} from "./stages/authenticate.js";
export type { AuthenticateOptions, CallerIdentity } from "./stages/authenticate.js";
export { resolveRoute } from "./stages/resolve-route.js";
export type { ResolveRouteInput, RoutePlan } from "./stages/resolve-route.js";
export { listAvailableModels } from "./stages/list-available-models.js";
export type { AvailableModel } from "./stages/list-available-models.js";
export { admitCall, describeBudgetOutcome } from "./stages/admit-call.js";
export type { AdmitCallInput } from "./stages/admit-call.js";
export { settleCall } from "./stages/settle-call.js";
export type { SettleCallInput } from "./stages/settle-call.js";
export { applyCallerGuardrails } from "./stages/apply-caller-guardrails.js";
export { callProvider } from "./stages/call-provider.js";
export type { CallProviderInput } from "./stages/call-provider.js";
export { callWithFallback } from "./stages/call-with-fallback.js";
export type { AttemptFailure, CallWithFallbackOptions } from "./stages/call-with-fallback.js";
export { runWithDeadline } from "./call/run-with-deadline.js";
export type { CallScope } from "./call/run-with-deadline.js";
export { settleCost, servedModelOf, priceOfTarget } from "./stages/settle-cost.js";
export { buildUsageEvent } from "./stages/build-usage-event.js";
export type { UsageEventInput } from "./stages/build-usage-event.js";
export { createAdapterRegistry } from "./runtime/adapter-registry.js";
export type { AdapterRegistry } from "./runtime/adapter-registry.js";
export { renderErrorResponse } from "./call/render-error-response.js";
export type { ErrorFormat } from "./call/render-error-response.js";
export type { PipelineJsonResponse } from "./call/pipeline-response.js";
export type { PipelineDependencies } from "./call/pipeline-dependencies.js";
export { runDecisionCall } from "./endpoints/run-decision-call.js";
export type { DecisionCallInput } from "./endpoints/run-decision-call.js";
export { runListModels } from "./endpoints/run-list-models.js";
export type { ListModelsInput } from "./endpoints/run-list-models.js";
export { createRedisAffinityStore } from "./runtime/redis-affinity-store.js";
export type { RedisAffinityStoreSettings } from "./runtime/redis-affinity-store.js";
export {
  announceControlPlaneChange,
  controlPlaneChannelName,
  createControlPlaneChangeChannel,
} from "./runtime/control-plane-change-channel.js";
export type {
  AnnounceControlPlaneChangeOptions,
  ControlPlaneChangeChannel,
  ControlPlaneChangeChannelSettings,
} from "./runtime/control-plane-change-channel.js";
export { createNotificationGate } from "./runtime/notification-gate.js";
export type { NotificationGate, NotificationGateSettings } from "./runtime/notification-gate.js";
export { buildOtlpTraceRequest, createSpanId, createTraceId } from "./delivery/build-otlp-trace-request.js";
export type { ExportSpan } from "./delivery/build-otlp-trace-request.js";
export { postJson } from "./delivery/post-json.js";
export type { DeliveryOutcome, PostJsonOptions } from "./delivery/post-json.js";
export { signWebhookPayload, verifyWebhookSignature, webhookSignatureHeader } from "./delivery/sign-webhook-payload.js";
export { deliverNotification } from "./delivery/deliver-notification.js";
export type {
  DeliverNotificationOptions,
  NotificationChannelConfig,
  NotificationEvent,
  NotificationMailer,
} from "./delivery/deliver-notification.js";
export { deliverTelemetry } from "./delivery/deliver-telemetry.js";
export type { DeliverTelemetryOptions, TelemetryDestinationConfig } from "./delivery/deliver-telemetry.js";
export { usageEventToSpan } from "./delivery/usage-event-span.js";
export {
  createBudgetExceededEvent,
  createBudgetThresholdEvent,
  createRateLimitExceededEvent,
} from "./delivery/limit-notification-events.js";
export { createDeliveryDispatcher } from "./delivery/create-delivery-dispatcher.js";
export type {
  DeliveryDispatcher,
  DeliveryDispatcherSettings,
  DeliveryNotificationChannel,
  DeliveryReport,
  DeliveryStats,
  DeliveryTargets,
  DeliveryTelemetryDestination,
} from "./delivery/create-delivery-dispatcher.js";
export { runChatCall, runMessagesCall, runChatShapedCall } from "./endpoints/run-chat-call.js";
export type { ChatCallInput, ChatCallOptions } from "./endpoints/run-chat-call.js";
export { runCountTokensCall, tokenCountSourceHeader, tokenCountAccuracyHeader } from "./endpoints/run-count-tokens-call.js";
export type { CountTokensCallInput } from "./endpoints/run-count-tokens-call.js";
export type { PipelineStreamResponse, PipelineCallResponse } from "./call/pipeline-stream-response.js";
export { parseChatBody } from "./endpoints/parse-chat-body.js";
export type { ChatBody, ChatFormat } from "./endpoints/parse-chat-body.js";
export { estimateChatAdmission, requestedOutputCap } from "./stages/estimate-chat-admission.js";
export type { ChatAdmissionEstimate } from "./stages/estimate-chat-admission.js";
export { createCallLifetime } from "./call/call-lifetime.js";
export type { CallLifetime } from "./call/call-lifetime.js";
export { relayChatStream, maxCapturedTextCharacters } from "./call/relay-chat-stream.js";
export type { RelayChatStreamOptions, StreamOutcome } from "./call/relay-chat-stream.js";
export { guardJsonOutput } from "./stages/guard-json-output.js";
export { renderStreamErrorEvent } from "./call/render-stream-error-event.js";
export { createPlaygroundRunner } from "./endpoints/create-playground-runner.js";
export type { PlaygroundChatInput, PlaygroundResult, PlaygroundRunner } from "./endpoints/create-playground-runner.js";
