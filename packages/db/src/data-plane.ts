// `@gateway/db/data-plane`: what a gateway process needs at run time, on the raw SQLite/PostgreSQL
// drivers, without loading Prisma. Everything here is also exported from `@gateway/db`.
export { openDataPlaneDatabase } from "./open-data-plane-database.js";
export type { DataPlaneDatabase, OpenDataPlaneDatabaseOptions } from "./open-data-plane-database.js";
export type { SqlClient } from "./sql-client.js";
export type { SqlStatement, StatementQuery, StatementRunner } from "./statement-runner.js";
export { resolveDatabaseUrl, DEFAULT_SQLITE_FILE_NAME } from "./database-url.js";
export type { DatabaseProvider, ResolvedDatabaseUrl } from "./database-url.js";
export { migrateDatabase, MigrationError } from "./migrate-database.js";
export type { MigrateDatabaseOptions, MigrationResult } from "./migrate-database.js";
export { createSecretBox, SecretBoxError } from "./secret-box.js";
export type { SecretBinding, SecretBox, SecretBoxOptions, SecretKey } from "./secret-box.js";
export { connectionCredentialBinding, notificationChannelConfigBinding, telemetryDestinationConfigBinding } from "./secret-bindings.js";
export { reencryptStoredSecrets } from "./reencrypt-stored-secrets.js";
export type { ReencryptionResult } from "./reencrypt-stored-secrets.js";
export { loadSecretBoxFromEnvironment } from "./load-secret-box-from-environment.js";
export type { LoadSecretBoxOptions, DatabaseLogger } from "./load-secret-box-from-environment.js";
export { loadControlPlaneSnapshot } from "./control-plane-snapshot.js";
export type { LoadControlPlaneSnapshotOptions } from "./control-plane-snapshot.js";
export {
  budgetAmountMicrosSchema,
  budgetAmountUsdSchema,
  budgetThresholdsSchema,
  maxRouteTargets,
  modelPriceBounds,
  rateLimitConcurrencySchema,
  rateLimitPerWindowSchema,
  rateLimitWindowSecondsSchema,
  routeAffinityTtlSecondsSchema,
  routeRetryMaxAttemptsSchema,
  routeTargetWeightSchema,
  activityRetentionDaysSchema,
  contentRetentionDaysSchema,
  contentMaxBytesSchema,
  defaultMetadataSchema,
} from "./control-plane-bounds.js";
export { connectionTimeoutsSchema, connectionDefaultMaxTokensSchema, maxConnectionTimeoutMs, modelEndpointsSchema } from "./json-values.js";
export { readControlPlaneVersion } from "./read-control-plane-version.js";
export { subscribeControlPlaneChanges, controlPlaneNotificationChannel } from "./subscribe-control-plane-changes.js";
export type { SubscribeControlPlaneChangesOptions, UnsubscribeControlPlaneChanges } from "./subscribe-control-plane-changes.js";
export { writeUsageBatch, appendUsageEvents, applyUsageRollups } from "./usage-events.js";
export type { UsageBatchOptions } from "./usage-events.js";
export { sealUsageEventContents } from "./usage-event-contents.js";
export type { SealedUsageContent, UsageEventToWrite } from "./usage-event-contents.js";
export { openUsageWriterThread } from "./open-usage-writer-thread.js";
export type { UsageWriterThread, UsageWriterThreadOptions } from "./open-usage-writer-thread.js";
export { listEnabledTelemetryDestinations, recordTelemetryDelivery } from "./telemetry-destinations.js";
export type { TelemetryDestinationWithConfig, TelemetryDestinationRecord } from "./telemetry-destinations.js";
export { listEnabledNotificationChannels, recordNotificationDelivery } from "./notification-channels.js";
export type { NotificationChannelWithConfig, NotificationChannelRecord } from "./notification-channels.js";
export { timeOrderedId } from "./time-ordered-id.js";
export { readMcpServerGrant, storeRefreshedMcpServerTokens, markMcpServerAuthorizationFailed } from "./mcp-server-grants.js";
export type { McpServerGrant, McpServerTokens } from "./mcp-server-grants.js";
export { isApiKeyFormat, hashApiKey } from "./api-key.js";
export { writeStoredResponse, readStoredResponse, deleteStoredResponse, deleteStoredResponsesSweep } from "./stored-responses.js";
export { budgetCounterVersion } from "./budget-counter-version.js";
export { sumRecordedBudgetSpend } from "./sum-recorded-budget-spend.js";
export type { RecordedSpendBudget, SumRecordedBudgetSpendOptions } from "./sum-recorded-budget-spend.js";
export { createRecordedUsageLoaders, recordedSpendBudget } from "./recorded-usage-loaders.js";
export type { RecordedSpendBudgetRule, RecordedSpendWindow, RecordedTokensRule } from "./recorded-usage-loaders.js";
export { listAdmittedTokenBuckets } from "./list-admitted-token-buckets.js";
export type { ListAdmittedTokenBucketsOptions } from "./list-admitted-token-buckets.js";
export { ensureUsageEventPartitions, listUsageEventPartitions, runUsageMaintenance, sweepUsageRetention, defaultActivityRetentionDays } from "./usage-retention.js";
export type { UsageMaintenanceOptions, UsageMaintenanceResult } from "./usage-retention.js";
