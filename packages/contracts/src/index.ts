export type {
  ConnectionKind,
  ControlPlaneSnapshot,
  McpAuthKind,
  McpTransport,
  SnapshotApiKey,
  SnapshotBudget,
  SnapshotConnection,
  SnapshotMcpServer,
  SnapshotMcpToken,
  SnapshotOrganization,
  SnapshotPolicy,
  SnapshotProject,
  SnapshotRateLimit,
  SnapshotRoute,
} from "./control-plane-snapshot.js";
export type { ConnectionTimeouts } from "./connection-timeouts.js";
export { connectionTimeoutNames } from "./connection-timeouts.js";
export type { ModelEndpoint } from "./model-endpoint.js";
export { modelEndpointNames } from "./model-endpoint.js";
export type { ModelPrice } from "./model-price.js";
export type { NormalizedUsage } from "./token-usage.js";
export type { UsageAttempt, UsageAttemptOutcome, UsageContentCapture, UsageEndpoint, UsageEventRecord } from "./usage-event.js";
export type { StoredResponse } from "./stored-response.js";
