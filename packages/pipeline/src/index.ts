export type {
  ControlPlaneSnapshot,
  ModelPrice,
  SnapshotApiKey,
  SnapshotBudget,
  SnapshotConnection,
  SnapshotOrganization,
  SnapshotPolicy,
  SnapshotProject,
  SnapshotRateLimit,
  SnapshotRoute,
} from "./control-plane-snapshot.js";
export type { UsageEventRecord, UsageEndpoint } from "./usage-event-record.js";
export type { ControlPlaneSource } from "./control-plane-source.js";
export type { UsageSink } from "./usage-sink.js";
export { compileSnapshot } from "./compile-snapshot.js";
export type { CompiledSnapshot } from "./compile-snapshot.js";
export { createSnapshotHolder } from "./snapshot-holder.js";
export type { SnapshotHolder, SnapshotHolderSettings, SnapshotReloadReason } from "./snapshot-holder.js";
export { createUsageQueue } from "./usage-queue.js";
export type { UsageQueue, UsageQueueSettings } from "./usage-queue.js";
export { generateRequestId } from "./generate-request-id.js";
export { readHeader } from "./request-headers.js";
export type { RequestHeaders } from "./request-headers.js";
export { createRequestContext, maxTraceIdLength } from "./request-context.js";
export type { RequestContext, CreateRequestContextOptions } from "./request-context.js";
export { isValidClientLabel, detectClientLabel, resolveClientLabel } from "./client-label.js";
export {
  authenticate,
  authenticateSecret,
  hashGatewayApiKey,
  identityForApiKeyId,
  readGatewayApiKey,
} from "./authenticate.js";
export type { AuthenticateOptions, CallerIdentity } from "./authenticate.js";
export { resolveRoute } from "./resolve-route.js";
export type { ResolveRouteInput, RoutePlan } from "./resolve-route.js";
export { listAvailableModels } from "./list-available-models.js";
export type { AvailableModel } from "./list-available-models.js";
export { admitCall, describeBudgetOutcome } from "./admit-call.js";
export type { AdmitCallInput } from "./admit-call.js";
export { settleCall } from "./settle-call.js";
export type { SettleCallInput } from "./settle-call.js";
export { applyCallerGuardrails } from "./apply-caller-guardrails.js";
export { callProvider } from "./call-provider.js";
export type { CallProviderInput } from "./call-provider.js";
export { callWithFallback } from "./call-with-fallback.js";
export type { AttemptFailure, CallWithFallbackOptions } from "./call-with-fallback.js";
export { runWithDeadline } from "./run-with-deadline.js";
export type { CallScope } from "./run-with-deadline.js";
export { settleCost, servedModelOf, priceOfTarget } from "./settle-cost.js";
export { buildUsageEvent } from "./build-usage-event.js";
export type { UsageEventInput } from "./build-usage-event.js";
export { createAdapterRegistry } from "./adapter-registry.js";
export type { AdapterRegistry } from "./adapter-registry.js";
export { renderErrorResponse } from "./render-error-response.js";
export type { ErrorFormat } from "./render-error-response.js";
export type { PipelineJsonResponse } from "./pipeline-response.js";
export type { PipelineDependencies } from "./pipeline-dependencies.js";
export { runDecisionCall } from "./run-decision-call.js";
export type { DecisionCallInput } from "./run-decision-call.js";
export { runListModels } from "./run-list-models.js";
export type { ListModelsInput } from "./run-list-models.js";
export { createRedisAffinityStore } from "./redis-affinity-store.js";
export type { RedisAffinityStoreSettings } from "./redis-affinity-store.js";
export {
  announceControlPlaneChange,
  controlPlaneChannelName,
  createControlPlaneChangeChannel,
} from "./control-plane-change-channel.js";
export type {
  AnnounceControlPlaneChangeOptions,
  ControlPlaneChangeChannel,
  ControlPlaneChangeChannelSettings,
} from "./control-plane-change-channel.js";
export { createNotificationGate } from "./notification-gate.js";
export type { NotificationGate, NotificationGateSettings } from "./notification-gate.js";
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
export { runChatCall, runMessagesCall, runChatShapedCall } from "./run-chat-call.js";
export type { ChatCallInput, ChatCallOptions } from "./run-chat-call.js";
export { runCountTokensCall, tokenCountSourceHeader, tokenCountAccuracyHeader } from "./run-count-tokens-call.js";
export type { CountTokensCallInput } from "./run-count-tokens-call.js";
export type { PipelineStreamResponse, PipelineCallResponse } from "./pipeline-stream-response.js";
export { parseChatBody } from "./parse-chat-body.js";
export type { ChatBody, ChatFormat } from "./parse-chat-body.js";
export { estimateChatAdmission, requestedOutputCap } from "./estimate-chat-admission.js";
export type { ChatAdmissionEstimate } from "./estimate-chat-admission.js";
export { createCallLifetime } from "./call-lifetime.js";
export type { CallLifetime } from "./call-lifetime.js";
export { relayChatStream, maxCapturedTextCharacters } from "./relay-chat-stream.js";
export type { RelayChatStreamOptions, StreamOutcome } from "./relay-chat-stream.js";
export { guardJsonOutput } from "./guard-json-output.js";
export { renderStreamErrorEvent } from "./render-stream-error-event.js";
export { createPlaygroundRunner } from "./create-playground-runner.js";
export type { PlaygroundChatInput, PlaygroundResult, PlaygroundRunner } from "./create-playground-runner.js";
