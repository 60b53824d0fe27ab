export type {
  ControlPlaneChange,
  ControlPlaneConfiguration,
  ControlPlaneConfigurationPart,
  ControlPlaneSnapshot,
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
export type { UsageAttempt, UsageAttemptOutcome, UsageContentCapture, UsageEventRecord } from "./usage-event.js";
export type { ConnectionKind } from "./connection-kind.js";
export type { UsageEndpoint } from "./usage-endpoint.js";
export { usageEndpointSchema, usageEndpoints } from "./usage-endpoint.js";
export type { McpAuthKind, McpTransport } from "./mcp-server-kinds.js";
export { mcpAuthKindSchema, mcpAuthKinds, mcpTransportSchema, mcpTransports } from "./mcp-server-kinds.js";
export type { NotificationChannelConfig, TelemetryDestinationConfig } from "./delivery-configs.js";
export {
  notificationChannelConfigSchema,
  notificationChannelKinds,
  telemetryDestinationConfigSchema,
  telemetryDestinationKinds,
} from "./delivery-configs.js";
export type { JsonObject } from "./json-object.js";
export type { StoredResponse } from "./stored-response.js";
export type {
  MonitorComparator,
  MonitorEvent,
  MonitorEventKind,
  MonitorMetric,
  MonitorRule,
  MonitorScope,
  MonitorScopeKind,
  MonitorSeries,
  MonitorSeverity,
  MonitorState,
  MonitorStatus,
} from "./monitor-rule.js";
export {
  monitorComparators,
  monitorCreateBodySchema,
  monitorDeliverySchema,
  monitorEventKinds,
  monitorEventSchema,
  monitorEventsQuerySchema,
  monitorMetrics,
  monitorMuteBodySchema,
  monitorRenotifyBoundsMinutes,
  monitorRoutes,
  monitorRuleFieldsShape,
  monitorRuleSchema,
  monitorScopeKinds,
  monitorScopeSchema,
  monitorSeriesQuerySchema,
  monitorSeriesSchema,
  monitorSeverities,
  monitorStateSchema,
  monitorStatuses,
  monitorUpdateBodySchema,
  monitorWindowBoundsMinutes,
} from "./monitor-rule.js";
