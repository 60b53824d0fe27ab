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
export type { SnapshotHolder, SnapshotHolderSettings } from "./snapshot-holder.js";
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
export { settleCost, servedModelOf } from "./settle-cost.js";
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
