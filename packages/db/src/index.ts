// Database
export { createDatabase, withBusyTimeout } from "./create-database.js";
export type { CreateDatabaseOptions, Database, DatabaseClient, GatewayPrismaClient } from "./create-database.js";
export { openDataPlaneDatabase } from "./open-data-plane-database.js";
export type { DataPlaneDatabase, OpenDataPlaneDatabaseOptions } from "./open-data-plane-database.js";
export type { SqlClient } from "./sql-client.js";
export type { SqlStatement, StatementQuery, StatementRunner } from "./statement-runner.js";
export { timeOrderedId } from "./time-ordered-id.js";
export { resolveDatabaseUrl, DEFAULT_SQLITE_FILE_NAME } from "./database-url.js";
export type { DatabaseProvider, ResolvedDatabaseUrl } from "./database-url.js";
export { migrateDatabase, readMigrationFiles, defaultMigrationsDirectory, MigrationError } from "./migrate-database.js";
export type { MigrateDatabaseOptions, MigrationResult, MigrationFile } from "./migrate-database.js";

// Secrets, passwords, keys and tokens
export { createSecretBox, SecretBoxError } from "./secret-box.js";
export type { SecretBinding, SecretBox, SecretBoxOptions, SecretKey } from "./secret-box.js";
export { connectionCredentialBinding, notificationChannelConfigBinding, telemetryDestinationConfigBinding } from "./secret-bindings.js";
export { reencryptStoredSecrets } from "./reencrypt-stored-secrets.js";
export type { ReencryptionResult } from "./reencrypt-stored-secrets.js";
export { loadSecretBoxFromEnvironment, parseSecretKeys, deriveKeyId, SECRET_KEY_FILE_NAME } from "./load-secret-box-from-environment.js";
export type { LoadSecretBoxOptions, DatabaseLogger } from "./load-secret-box-from-environment.js";
export { hashPassword, verifyPassword, needsRehash, dummyPasswordHash, DEFAULT_PASSWORD_HASH_PARAMETERS } from "./password-hash.js";
export type { PasswordHashParameters } from "./password-hash.js";
export { generateApiKey, describeApiKey, hashApiKey, isApiKeyFormat, encodeBase62, API_KEY_PREFIX, API_KEY_BODY_LENGTH } from "./api-key.js";
export type { GeneratedApiKey } from "./api-key.js";
export { generateSessionId, generateToken, hashToken, timingSafeEqualStrings } from "./tokens.js";

// Enums stored as strings
export {
  ORGANIZATION_AUTHENTICATION,
  MEMBERSHIP_ROLES,
  CONNECTION_KINDS,
  ROUTE_STRATEGIES,
  POLICY_SCOPES,
  BUDGET_SCOPES,
  BUDGET_PERIODS,
  BUDGET_MODES,
  RATE_LIMIT_SCOPES,
  USAGE_ENDPOINTS,
  INVITATION_DELIVERY_STATUSES,
  INVITATION_DELIVERY_FAILURES,
  TELEMETRY_DESTINATION_KINDS,
  NOTIFICATION_CHANNEL_KINDS,
  MCP_TRANSPORTS,
  MCP_AUTH_KINDS,
  MCP_SERVER_STATUSES,
  AUDIT_ACTOR_KINDS,
} from "./enums.js";

// Control plane
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
export {
  loadControlPlaneSnapshot,
  loadControlPlaneConfiguration,
  loadControlPlaneParts,
  loadActiveApiKeys,
  loadActiveMcpTokens,
} from "./control-plane-snapshot.js";
export type { KeyRowSelection, LoadControlPlaneSnapshotOptions } from "./control-plane-snapshot.js";
export { readControlPlaneVersion } from "./read-control-plane-version.js";
export { readControlPlaneChanges } from "./read-control-plane-changes.js";
export type { ReadControlPlaneChangesOptions } from "./read-control-plane-changes.js";
export { writeStoredResponse, readStoredResponse, deleteStoredResponse, deleteStoredResponsesSweep } from "./stored-responses.js";
export { subscribeControlPlaneChanges, controlPlaneNotificationChannel } from "./subscribe-control-plane-changes.js";
export type {
  ControlPlaneNotification,
  SubscribeControlPlaneChangesOptions,
  UnsubscribeControlPlaneChanges,
} from "./subscribe-control-plane-changes.js";

// Usage
export { appendUsageEvents, applyUsageRollups, writeUsageBatch, aggregateUsageRollups, rollupModelKey } from "./usage-events.js";
export type { StoredUsageEvent, UsageBatchOptions } from "./usage-events.js";
export { openUsageWriterThread } from "./open-usage-writer-thread.js";
export type { UsageWriterThread, UsageWriterThreadOptions } from "./open-usage-writer-thread.js";
export { listUsageEvents, listDailyUsage } from "./usage-queries.js";
export type { ListUsageEventsOptions, ListDailyUsageOptions, DailyUsageRow } from "./usage-queries.js";
export { listUsageSeries, usageLatencyBucketBoundsMs } from "./usage-series.js";
export type { ListUsageSeriesOptions, UsageSeriesRow, UsageSeriesInterval, UsageSeriesGroupBy } from "./usage-series.js";
export { sumUsageEvents } from "./sum-usage-events.js";
export type { SumUsageEventsOptions, UsageEventTotals } from "./sum-usage-events.js";

// Repository support
export { isUniqueViolation, isRecordNotFound, normalizeEmail, encodeTimeCursor, decodeTimeCursor, runInTransaction } from "./repository-support.js";
export type { RunInTransactionOptions } from "./repository-support.js";
export type { Page, TimeCursor } from "./repository-support.js";

// Organizations, users, memberships, sessions
export {
  createOrganization,
  upsertOrganizationBySlug,
  getOrganization,
  getOrganizationBySlug,
  listOrganizations,
  updateOrganization,
  deleteOrganization,
} from "./organizations.js";
export type { OrganizationRecord, OrganizationInput } from "./organizations.js";
export { createUser, upsertUserByEmail, getUser, findUserByEmail, updateUser, deleteUser } from "./users.js";
export type { UserRecord, UserInput } from "./users.js";
export {
  createMembership,
  upsertMembership,
  getMembership,
  listMembershipsOfUser,
  listOrganizationMembers,
  getOrganizationMember,
  updateMembershipRole,
  deleteMembership,
  listProjectIdsOfUser,
  setProjectMembershipsOfUser,
} from "./memberships.js";
export type { MembershipRecord, MembershipRole, OrganizationMember } from "./memberships.js";
export {
  createLoginSession,
  findActiveLoginSession,
  touchLoginSession,
  setLoginSessionOrganization,
  revokeLoginSession,
  revokeLoginSessionsOfUser,
  deleteExpiredLoginSessions,
} from "./login-sessions.js";
export type { LoginSessionRecord, ActiveLoginSession } from "./login-sessions.js";
export { findSessionPrincipal, listUserMemberships, touchSessionLastSeen } from "./session-principal.js";
export type { SessionPrincipalRow, UserMembershipRow } from "./session-principal.js";

// Teams and projects
export {
  createTeam,
  listTeams,
  getTeam,
  updateTeam,
  deleteTeam,
  addTeamMember,
  removeTeamMember,
  listTeamMembers,
  getTeamMember,
  listTeamRolesOfUser,
} from "./teams.js";
export type { TeamRecord, TeamMemberRecord, TeamMemberWithUser, TeamRoleOfUser } from "./teams.js";
export { createProject, upsertProjectByName, listProjects, getProject, updateProject, deleteProject } from "./projects.js";
export type { ProjectRecord, ProjectInput } from "./projects.js";

// Control-plane resources
export {
  createApiKey,
  upsertApiKeyBySecret,
  listApiKeys,
  listApiKeysPage,
  getApiKey,
  findApiKeyByHash,
  updateApiKey,
  revokeApiKey,
  touchApiKeysLastUsed,
} from "./api-keys.js";
export type { ApiKeyRecord, ApiKeyInput, ApiKeyStatus, ListApiKeysPageOptions } from "./api-keys.js";
export type { ApiKeyRevocation } from "./revoke-api-key-statement.js";
export {
  createConnection,
  upsertConnectionByName,
  listConnections,
  getConnection,
  getConnectionCredential,
  updateConnection,
  deleteConnection,
} from "./connections.js";
export type { ConnectionRecord, ConnectionInput } from "./connections.js";
export { createPolicy, upsertPolicyByScope, listPolicies, getPolicy, updatePolicy, deletePolicy } from "./policies.js";
export type { PolicyRecord, PolicyInput, PolicyScope } from "./policies.js";
export { createRoute, upsertRouteByAlias, listRoutes, getRoute, updateRoute, deleteRoute } from "./routes.js";
export type { RouteRecord, RouteInput, RouteStrategy } from "./routes.js";
export { createBudget, upsertBudgetByName, listBudgets, getBudget, updateBudget, deleteBudget, resetBudgetSpend } from "./budgets.js";
export type { BudgetRecord, BudgetInput, BudgetSpendResetInput } from "./budgets.js";
export { budgetCounterVersion } from "./budget-counter-version.js";
export { sumRecordedBudgetSpend } from "./sum-recorded-budget-spend.js";
export type { RecordedSpendBudget, SumRecordedBudgetSpendOptions } from "./sum-recorded-budget-spend.js";
export { createRecordedUsageLoaders, recordedSpendBudget } from "./recorded-usage-loaders.js";
export type { RecordedSpendBudgetRule, RecordedSpendWindow, RecordedTokensRule } from "./recorded-usage-loaders.js";
export { sumAdmittedRateLimitUsage } from "./sum-admitted-rate-limit-usage.js";
export { listAdmittedTokenBuckets } from "./list-admitted-token-buckets.js";
export type { ListAdmittedTokenBucketsOptions } from "./list-admitted-token-buckets.js";
export type { AdmittedUsageLimit, AdmittedUsageTotals } from "./sum-admitted-rate-limit-usage.js";
export { createRateLimit, upsertRateLimit, listRateLimits, getRateLimit, updateRateLimit, deleteRateLimit } from "./rate-limits.js";
export type { RateLimitRecord, RateLimitInput } from "./rate-limits.js";

// Invitations, telemetry, notifications, MCP, audit
export {
  createInvitation,
  listInvitations,
  getInvitation,
  findInvitationByTokenHash,
  recordInvitationDelivery,
  renewInvitation,
  revokeInvitation,
  acceptInvitation,
} from "./invitations.js";
export type { InvitationRecord, InvitationDeliveryStatus, InvitationDeliveryFailure, InvitationStatus, ListInvitationsOptions } from "./invitations.js";
export {
  SSO_CLIENT_AUTH_METHODS,
  deleteSsoConfiguration,
  findSsoOrganizationsByEmailDomain,
  getSsoClientCredential,
  getSsoConfiguration,
  markSsoOwnerSignedIn,
  ssoClientCredentialBinding,
  upsertSsoConfiguration,
} from "./sso-configurations.js";
export type {
  SsoClientAuthMethod,
  SsoConfigurationInput,
  SsoConfigurationRecord,
  SsoOrganizationMatch,
  SsoProjectMapping,
  SsoRoleMapping,
  SsoTeamMapping,
} from "./sso-configurations.js";
export {
  acceptPendingInvitationByEmail,
  consumeSsoLoginState,
  createSsoLoginState,
  findSsoIdentityUser,
  readSsoTestResult,
  recordSsoTestResult,
  syncSsoGroupMemberships,
  upsertSsoIdentity,
} from "./sso-sign-ins.js";
export type { SsoGroupSyncResult, SsoLoginPurpose, SsoLoginState } from "./sso-sign-ins.js";
export {
  createTelemetryDestination,
  listTelemetryDestinations,
  listTelemetryDestinationsWithConfig,
  listEnabledTelemetryDestinations,
  getTelemetryDestination,
  getTelemetryDestinationWithConfig,
  updateTelemetryDestination,
  recordTelemetryDelivery,
  deleteTelemetryDestination,
} from "./telemetry-destinations.js";
export type { TelemetryDestinationRecord, TelemetryDestinationWithConfig, TelemetryDestinationInput } from "./telemetry-destinations.js";
export {
  createNotificationChannel,
  listNotificationChannels,
  listNotificationChannelsWithConfig,
  listEnabledNotificationChannels,
  getNotificationChannel,
  getNotificationChannelWithConfig,
  updateNotificationChannel,
  recordNotificationDelivery,
  deleteNotificationChannel,
} from "./notification-channels.js";
export type { NotificationChannelRecord, NotificationChannelWithConfig, NotificationChannelInput } from "./notification-channels.js";
export {
  createMcpServer,
  listMcpServers,
  getMcpServer,
  updateMcpServer,
  deleteMcpServer,
  beginMcpServerOAuth,
  claimMcpServerOAuthState,
  completeMcpServerOAuth,
  storeMcpServerTokens,
  clearMcpServerTokens,
  getMcpServerTokens,
  getMcpServerClientSecret,
} from "./mcp-servers.js";
export type { McpServerRecord, McpServerInput, McpServerTokens, PendingMcpOAuth } from "./mcp-servers.js";
export { createMcpToken, listMcpTokens, getMcpToken, revokeMcpToken } from "./mcp-tokens.js";
export { readMcpServerGrant, storeRefreshedMcpServerTokens, markMcpServerAuthorizationFailed } from "./mcp-server-grants.js";
export type { McpServerGrant } from "./mcp-server-grants.js";
export type { McpTokenRecord } from "./mcp-tokens.js";
export { appendAuditEvent, appendAuditEvents, listAuditEvents } from "./audit-events.js";
export type { AuditEventInput, AuditEventRecord } from "./audit-events.js";
// Activity (every recorded call: list, detail, sessions, export)
export { listActivityCalls, iterateActivityCalls, getActivityCall, listActivitySessions, listActivitySessionCalls } from "./activity-queries.js";
export type {
  ActivityFilters,
  ActivityStatusFilter,
  ActivityCall,
  ActivityCallDetail,
  ActivitySession,
  ListActivityCallsOptions,
  IterateActivityCallsOptions,
  GetActivityCallOptions,
  ListActivitySessionsOptions,
  ListActivitySessionCallsOptions,
} from "./activity-queries.js";
export { parseStoredMetadata, parseStoredUsageAttempts, toStoredUsageAttempts } from "./usage-event-rows.js";
export type { StoredUsageAttempt } from "./usage-event-rows.js";
export { readUsageEventContent, sealUsageEventContents, capUsageContent, defaultContentMaxBytes, defaultContentRetentionDays } from "./usage-event-contents.js";
export type { SealedUsageContent, UsageEventContent, UsageEventToWrite } from "./usage-event-contents.js";
export { aggregateHourlyUsageRollups, latencyBucketIndex } from "./usage-hourly-rollups.js";
export { ensureUsageEventPartitions, listUsageEventPartitions, runUsageMaintenance, sweepUsageRetention, defaultActivityRetentionDays } from "./usage-retention.js";
export type { UsageMaintenanceOptions, UsageMaintenanceResult } from "./usage-retention.js";
export type {
  EvaluatorLeaseClaim,
  MonitorDeliveryRecord,
  MonitorEventRecord,
  MonitorRuleInput,
  MonitorRuleRecord,
  MonitorStateRecord,
  MonitorTransition,
  NewMonitorState,
} from "./monitors.js";
export {
  applyMonitorTransition,
  claimEvaluatorLease,
  claimMonitorEventDeliveries,
  createMonitorRule,
  createMonitorStates,
  deleteMonitorRule,
  getMonitorRule,
  getMonitorRuleByName,
  listEnabledMonitorRules,
  listMonitorEvents,
  listMonitorRules,
  listMonitorStates,
  listPendingMonitorEvents,
  recordMonitorDeliveries,
  recordMonitorValues,
  releaseEvaluatorLease,
  setMonitorRuleMute,
  updateMonitorRule,
  upsertMonitorRuleByName,
} from "./monitors.js";
export type { MonitorRollupDimension, MonitorRollupSums, SumMonitorRollupsOptions, SumMonitorRollupWindowsOptions } from "./usage-monitor-rollups.js";
export {
  aggregateMonitorRollups,
  deleteExpiredMonitorRollups,
  monitorRollupColumnIndex,
  monitorRollupDimensions,
  monitorRollupGroupStatements,
  monitorRollupHistogramOffset,
  monitorRollupSummedColumns,
  monitorWindowRanges,
  sumMonitorRollupWindows,
  sumMonitorRollups,
} from "./usage-monitor-rollups.js";
