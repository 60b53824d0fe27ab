import {
  type AdmissionController,
  type BudgetThresholdCrossing,
  type RecordedSpendLoader,
  type RecordedTokensLoader,
  createAdmissionController,
  createMemoryStore,
  createRedisStore,
} from "@gateway/budget";
import {
  type ApiKeyActivity,
  type CompiledSnapshot,
  type ControlPlaneChangeChannel,
  defaultMcpResultLimitBytes,
  type ControlPlaneSource,
  type DeliveryDispatcher,
  type DeliveryReport,
  type DeliveryTargets,
  type InferenceCallObserver,
  type PlaygroundRunner,
  type SnapshotReloadReason,
  type ResponseStore,
  type SnapshotHolder,
  type UsageJournal,
  type UsageQueue,
  type UsageSink,
  createAdapterRegistry,
  createApiKeyActivity,
  combineCallObservers,
  createBudgetThresholdEvent,
  createMcpAuthorizationFailedEvent,
  createControlPlaneChangeChannel,
  createDeliveryDispatcher,
  createMemoryResponseStore,
  createNotificationGate,
  createPlaygroundRunner as createPipelinePlaygroundRunner,
  createRedisAffinityStore,
  createSnapshotHolder,
  createUsageQueue,
  notifyAdmissionRefusals,
} from "@gateway/pipeline";
import { defaultJsonMaxArrayElements, defaultJsonMaxObjectKeys, defaultJsonMaxValues } from "@gateway/errors";
import { createLatencyTracker, createMemoryAffinityStore } from "@gateway/policy-engine";
import { type HttpTransport, createHttpTransport, createOutboundFetch, outboundAddressPolicyFromEnvironment } from "@gateway/provider-adapters";
import type { McpGateway, McpGrantStore } from "@gateway/mcp";
import type { UsageEventRecord } from "@gateway/contracts";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { type GatewayAppDependencies, type GatewayHandler, type GatewayRequestHook, createGatewayHandler, defaultMcpBodyLimitBytes } from "./create-gateway-handler.js";
import type { GatewaySettings } from "./gateway-settings.js";
import { describeError } from "./logging/create-gateway-logger.js";
import { type GatewayTracing, createGatewayTracing } from "./observability/create-gateway-tracing.js";

/** Minimal logger: errors and notices (never secrets); `fields` are structured context (ids, counts). */
export interface GatewayLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, error?: unknown, fields?: Record<string, unknown>): void;
}

/** Facts of the runtime's long-lived parts, for metrics (each optional). */
export interface GatewayRuntimeEvents {
  /** A control-plane snapshot was loaded (`start` included) or a change applied as a delta. */
  snapshotReloaded?(reason: SnapshotReloadReason, mode?: "full" | "delta"): void;
  /** A version check or reload failed; the previous snapshot stays in service. */
  snapshotReloadFailed?(): void;
  /** Usage events were dropped (queue full while the database failed, or unwritten at shutdown). */
  usageEventsDropped?(count: number): void;
  /** A batch of usage events failed to be written (it is retried). */
  usageWriteFailed?(count: number): void;
  /** Background deliveries were dropped from a full queue. */
  deliveryDropped?(kind: "spans" | "notifications" | "deliveries", count: number): void;
  /** A background delivery was given up after its last attempt. */
  deliveryFailed?(kind: "telemetry" | "notification"): void;
}

/** Options of {@link createGatewayRuntime}. */
export interface GatewayRuntimeOptions {
  source: ControlPlaneSource;
  sink: UsageSink;
  /**
   * `GATEWAY_USAGE_DURABILITY=journal`: every usage event is appended to this journal before it is
   * queued, and acknowledged once `sink` has written it. Its `recovered` events are the caller's.
   */
  usageJournal?: UsageJournal;
  /**
   * Which keys' `last_used_at` the usage batches carry (at most one write per key per minute);
   * default `createApiKeyActivity()`. Tests inject one with their own clock.
   */
  apiKeyActivity?: ApiKeyActivity;
  settings: Pick<
    GatewaySettings,
    | "bodyLimitBytes"
    | "requestTimeoutMs"
    | "upstreamTimeoutMs"
    | "upstreamConnectTimeoutMs"
    | "snapshotPollMs"
    | "usageBatchSize"
    | "usageFlushMs"
    | "redisUrl"
  > &
    Partial<
      Pick<
        GatewaySettings,
        | "redisKeyPrefix"
        | "snapshotFullReloadMs"
        | "redisFailureModeBudgets"
        | "redisFailureModeRateLimits"
        | "deliveryFlushMs"
        | "deliveryTimeoutMs"
        | "deliveryMaxAttempts"
        | "deliveryQueueSize"
        | "deliveryRefreshMs"
        | "streamFirstByteTimeoutMs"
        | "streamIdleTimeoutMs"
        | "streamMaxDurationMs"
        | "mcpTimeoutMs"
        | "mcpListTimeoutMs"
        | "mcpCatalogTtlMs"
        | "mcpAllowedOrigins"
        | "outboundPrivateAddresses"
        | "publicUrl"
        | "traces"
        | "tracePropagation"
        | "serviceName"
        | "responsesRetentionDays"
        | "jsonMaxValues"
        | "jsonMaxObjectKeys"
        | "jsonMaxArrayElements"
        | "mcpBodyLimitBytes"
        | "mcpResultLimitBytes"
      >
    >;
  /**
   * Where stored Responses live (the database's `stored_responses` when served from one); unset:
   * this process's memory (lost on restart, not shared between instances); null: nothing is stored.
   */
  responseStore?: ResponseStore | null;
  logger?: GatewayLogger;
  /** Told about every finished background delivery (the server records `last_delivery_*`). */
  onDeliveryReport?: (report: DeliveryReport) => void;
  /** Steps run for every request before routing (metrics, logs). */
  hooks?: readonly GatewayRequestHook[];
  /**
   * Where MCP servers' OAuth grants are read and refreshed tokens stored (`@gateway/db`'s raw-driver
   * functions); without it an expired grant cannot be refreshed (its calls fail with `mcp_authorization_failed`).
   */
  mcpGrants?: McpGrantStore;
  /** Told about every inference call (metrics); traces are the runtime's own (`settings.traces`). */
  observer?: InferenceCallObserver;
  /** Told about snapshot reloads, usage-queue and delivery drops (metrics). */
  events?: GatewayRuntimeEvents;
  /**
   * The recorded spend of a budget's period (`@gateway/db`'s `sumRecordedBudgetSpend`): seeds a
   * budget counter that is missing (after a start, a budget change or reset, a Redis that lost
   * its keys). Without it a missing counter starts from nothing recorded.
   */
  recordedSpend?: RecordedSpendLoader;
  /**
   * The recorded tokens of a rate limit's admitted calls per minute (`@gateway/db`'s
   * `listAdmittedTokenBuckets`): rebuilds a missing token window of an hour or more (shorter ones start empty).
   */
  recordedTokens?: RecordedTokensLoader;
}

/** A wired gateway: its request listener and the parts that need closing. */
export interface GatewayRuntime {
  /** The gateway's request listener: serve it with `createGatewayServer(runtime.handler, { requestTimeoutMs })` (parser-level errors and timeouts answered in the error body). */
  handler: GatewayHandler;
  /** What the pipeline runs on (for another entry over the same runtime, e.g. with request hooks). */
  dependencies: GatewayAppDependencies;
  snapshots: SnapshotHolder;
  usageQueue: UsageQueue;
  transport: HttpTransport;
  /** Rate limits and budgets (memory or Redis counters). */
  admission: AdmissionController;
  /**
   * Where the admission counters live: `shared_counters` (Redis, every instance) or
   * `instance_counters` (this process's memory). The dashboard in the same process reads
   * `admission.readBudgetUsages` / `readRateLimitUsages` and labels the figures with it.
   */
  counterSource: "shared_counters" | "instance_counters";
  /** Background delivery of usage traces and budget/limit notifications. */
  delivery: DeliveryDispatcher;
  /** Redis pub/sub of control-plane changes (null without `REDIS_URL`). */
  changes: ControlPlaneChangeChannel | null;
  /** The shared Redis connection (null without `REDIS_URL`), for readiness checks. */
  redis: Redis | null;
  /** OpenTelemetry traces of calls to the organizations' OTLP destinations (null when `settings.traces` is off). */
  tracing: GatewayTracing | null;
  /** Tells every instance sharing Redis to reload its snapshot now (no-op without Redis). */
  announceControlPlaneChange(): void;
  /** Reloads telemetry destinations and notification channels now. */
  refreshDeliveryTargets(): Promise<void>;
  /** Stops polling, drains the usage queue (up to `timeoutMs`), closes upstream pools and Redis. */
  close(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * The dashboard playground's entry into this runtime's pipeline (same dependencies as
   * `POST /v1/chat/completions`; usage events record the user and `endpoint: "playground"`).
   */
  createPlaygroundRunner(): PlaygroundRunner;
}

/**
 * Wires the data plane: snapshot holder (loaded before this resolves), usage queue, pooled
 * transport, adapters, admission controller (Redis counters when `redisUrl` is set, else
 * in-process memory) and the request listener.
 */
export async function createGatewayRuntime(options: GatewayRuntimeOptions): Promise<GatewayRuntime> {
  const { settings } = options;
  const logger = options.logger ?? silentLogger;
  const events = options.events ?? {};
  const keyPrefix = settings.redisKeyPrefix ?? "gateway:";
  const redis = settings.redisUrl === undefined ? undefined : new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
  // Without a listener ioredis prints every reconnect failure; the admission policy decides what a failure means.
  redis?.on("error", (error: Error) => logger.error("Redis connection error.", error));
  const subscriber = redis?.duplicate();
  subscriber?.on("error", (error: Error) => logger.error("Redis subscriber connection error.", error));
  const changes =
    redis === undefined || subscriber === undefined
      ? null
      : createControlPlaneChangeChannel({
          redis,
          subscriber,
          keyPrefix,
          onError: (error) => logger.error("Announcing a control-plane change through Redis failed.", error),
        });

  // Traces go to OTLP destinations through the OpenTelemetry SDK (spans per call and per attempt);
  // the delivery dispatcher keeps webhook destinations (one usage span per call) and notifications.
  const tracing =
    settings.traces === false
      ? null
      : createGatewayTracing({
          serviceName: settings.serviceName ?? "ai-gateway",
          propagateUpstream: settings.tracePropagation ?? false,
          flushIntervalMs: settings.deliveryFlushMs ?? 1000,
          exportTimeoutMs: settings.deliveryTimeoutMs ?? 5000,
          maxQueuedSpans: settings.deliveryQueueSize ?? 10_000,
          onReport: (report) => {
            if (!report.delivered) {
              events.deliveryFailed?.("telemetry");
              logger.error(`A trace export to ${report.targetId} failed: ${report.failure ?? "failed"}`);
            }
            options.onDeliveryReport?.(report);
          },
        });
  let deliveryTargets: DeliveryTargets = { telemetryDestinations: [], notificationChannels: [] };
  let deliveryLoad: Promise<void> | undefined;
  const refreshDeliveryTargets = (): Promise<void> => {
    const load = options.source.loadDeliveryTargets;
    if (load === undefined) return Promise.resolve();
    deliveryLoad ??= load()
      .then((targets) => {
        if (tracing === null) deliveryTargets = targets;
        else {
          tracing.setDestinations(targets.telemetryDestinations);
          deliveryTargets = { ...targets, telemetryDestinations: targets.telemetryDestinations.filter((destination) => destination.config.kind !== "otlp_http") };
        }
      })
      .catch((error: unknown) => logger.error("Loading telemetry destinations and notification channels failed; keeping the previous ones.", error))
      .finally(() => void (deliveryLoad = undefined));
    return deliveryLoad;
  };

  const source: ControlPlaneSource = {
    load: () => options.source.load(),
    readVersion: () => options.source.readVersion(),
    ...(options.source.deltas === undefined ? {} : { deltas: options.source.deltas }),
    async subscribe(onChange) {
      const unsubscribers = [
        ...(options.source.subscribe ? [await options.source.subscribe(onChange)] : []),
        ...(changes ? [await changes.subscribe(onChange)] : []),
      ];
      return async () => {
        for (const unsubscribe of unsubscribers) await unsubscribe();
      };
    },
  };
  /** Set once the MCP side can be loaded (the snapshot may reload before). */
  let preloadMcp: (() => void) | null = null;
  const snapshots = createSnapshotHolder({
    source,
    pollIntervalMs: settings.snapshotPollMs,
    ...(settings.snapshotFullReloadMs === undefined ? {} : { fullReloadIntervalMs: settings.snapshotFullReloadMs }),
    onError: (error) => {
      events.snapshotReloadFailed?.();
      logger.error("Control-plane snapshot refresh failed; serving the previous snapshot.", error);
    },
    // This instance noticed a change by polling: tell the others at once (before loading it
    // ourselves) so that they load in parallel instead of waiting for their own poll.
    onVersionChange: (version, logged) => changes?.announce(version, logged),
    onReload: (snapshot, reason, details) => {
      events.snapshotReloaded?.(reason, details.mode);
      if (reason === "start") return;
      // Keys and MCP tokens alone (a revocation) change neither the delivery targets nor the MCP servers.
      const keysOnly = details.mode === "delta" && details.changes.every((change) => change.table === "api_keys" || change.table === "mcp_tokens");
      if (keysOnly) return;
      void refreshDeliveryTargets();
      if (snapshot.snapshot.mcpServers.length > 0) preloadMcp?.();
    },
  });
  await snapshots.start();
  await refreshDeliveryTargets();
  const deliveryRefreshTimer = setInterval(() => void refreshDeliveryTargets(), settings.deliveryRefreshMs ?? 30_000);
  deliveryRefreshTimer.unref();

  // Every URL an organization stored is called under the outbound address policy (checked on the
  // address each connection resolves to; unset: GATEWAY_OUTBOUND_PRIVATE_ADDRESSES of the environment).
  const outboundAddresses = settings.outboundPrivateAddresses === undefined ? outboundAddressPolicyFromEnvironment() : { privateAddresses: settings.outboundPrivateAddresses };
  const outboundFetch = createOutboundFetch({ policy: outboundAddresses });
  const delivery = createDeliveryDispatcher({
    targets: () => deliveryTargets,
    fetch: outboundFetch,
    maxQueuedSpans: settings.deliveryQueueSize ?? 10_000,
    flushIntervalMs: settings.deliveryFlushMs ?? 1000,
    timeoutMs: settings.deliveryTimeoutMs ?? 5000,
    maxAttempts: settings.deliveryMaxAttempts ?? 5,
    onReport: (report) => {
      if (!report.delivered) {
        events.deliveryFailed?.(report.kind);
        logger.error(`Giving up a ${report.kind} delivery to ${report.targetId} after ${report.attempts} attempt(s): ${report.failure ?? "failed"}`);
      }
      options.onDeliveryReport?.(report);
    },
    onDropped: (kind, count) => {
      events.deliveryDropped?.(kind, count);
      logger.error(`Delivery queue full: dropped ${count} queued ${kind} (oldest first).`);
    },
  });
  const journal = options.usageJournal;
  const usageQueue = createUsageQueue({
    sink:
      journal === undefined
        ? options.sink
        : {
            async write(batch, writeOptions) {
              await options.sink.write(batch, writeOptions);
              journal.acknowledge(batch);
            },
          },
    maxBatchSize: settings.usageBatchSize,
    flushIntervalMs: settings.usageFlushMs,
    // Keys' "last used": written with the usage batches, at most once per key per minute.
    apiKeyActivity: options.apiKeyActivity ?? createApiKeyActivity(),
    onError: (error, context) => {
      if (context.lastUsedKeys !== undefined) {
        logger.error(`Recording the last use of ${context.lastUsedKeys} API key(s) failed; will retry.`, error);
        return;
      }
      if (context.droppedEvents) events.usageEventsDropped?.(context.droppedEvents);
      else events.usageWriteFailed?.(context.failedEvents ?? 0);
      logger.error(
        context.droppedEvents ? `Dropped ${context.droppedEvents} usage event(s).` : `Writing ${context.failedEvents} usage event(s) failed; will retry.`,
        error,
      );
    },
  });
  const transport = createHttpTransport({
    outboundAddresses,
    connectTimeoutMs: settings.upstreamConnectTimeoutMs,
    totalTimeoutMs: settings.upstreamTimeoutMs,
    firstByteTimeoutMs: settings.streamFirstByteTimeoutMs,
    idleTimeoutMs: settings.streamIdleTimeoutMs,
    maxStreamDurationMs: settings.streamMaxDurationMs,
  });
  const store = redis === undefined ? createMemoryStore() : createRedisStore({ redis, keyPrefix });
  const controller = createAdmissionController({
    store,
    onRedisError: {
      hardBudgets: settings.redisFailureModeBudgets ?? "closed",
      rateLimits: settings.redisFailureModeRateLimits ?? "open",
    },
    onStoreError: (error, context) => logger.error(`Counter store failed during ${context.operation}.`, error),
    ...(options.recordedSpend === undefined ? {} : { loadRecordedSpend: options.recordedSpend }),
    ...(options.recordedTokens === undefined ? {} : { loadRecordedTokens: options.recordedTokens }),
  });
  const notificationGate = createNotificationGate({ redis: redis ?? null, keyPrefix });
  const admission = notifyAdmissionRefusals(controller, {
    gate: notificationGate,
    notify: (organizationId, event) => delivery.notify(organizationId, event),
  });
  const usage: GatewayAppDependencies["usage"] = {
    enqueue(event) {
      // An inference call's event was journaled by `record` (it has an id); others (e.g. /v1/models) are journaled here.
      if (journal !== undefined && event.id === undefined) journal.append(event);
      usageQueue.enqueue(event);
      delivery.enqueueUsage(event);
    },
    // Journal mode: before the answer is written, so that an answered call's event survives a SIGKILL.
    ...(journal === undefined ? {} : { record: (event: UsageEventRecord) => journal.append(event) }),
  };
  const onBudgetThreshold = (crossing: BudgetThresholdCrossing) => {
    const organizationId = organizationOfBudget(snapshots.current(), crossing.budgetId);
    if (organizationId !== null) delivery.notify(organizationId, createBudgetThresholdEvent(crossing));
  };
  const dependencies: GatewayAppDependencies = {
    snapshots,
    usage,
    adapters: createAdapterRegistry({ transport, fetch: outboundFetch }),
    admission,
    onBudgetThreshold,
    affinityStore:
      redis === undefined
        ? createMemoryAffinityStore()
        : createRedisAffinityStore({
            redis,
            keyPrefix,
            onError: (error) => logger.error("Session affinity lookup in Redis failed; routing without it.", error),
          }),
    latencyTracker: createLatencyTracker(),
    requestTimeoutMs: settings.requestTimeoutMs,
    bodyLimitBytes: settings.bodyLimitBytes,
    jsonLimits: {
      maxValues: settings.jsonMaxValues ?? defaultJsonMaxValues,
      maxObjectKeys: settings.jsonMaxObjectKeys ?? defaultJsonMaxObjectKeys,
      maxArrayElements: settings.jsonMaxArrayElements ?? defaultJsonMaxArrayElements,
    },
    mcpBodyLimitBytes: settings.mcpBodyLimitBytes ?? defaultMcpBodyLimitBytes,
    responseRetentionMs: (settings.responsesRetentionDays ?? 30) * 24 * 60 * 60 * 1000,
    responseStore: options.responseStore === undefined ? createMemoryResponseStore() : options.responseStore,
    onInternalError: (error, requestId) => logger.error(`Internal error on ${requestId}.`, error, { request_id: requestId }),
  };
  const observer = combineCallObservers([options.observer, tracing?.observer]);
  if (observer !== undefined) dependencies.observer = observer;
  // The MCP side (the MCP SDK, about 9 MB) is loaded on the first MCP request, or at once when
  // the control plane has MCP servers: a gateway without them never pays for it.
  let mcp: Promise<McpGateway> | null = null;
  const loadMcp = (): Promise<McpGateway> =>
    (mcp ??= import("@gateway/mcp").then((module) => {
      const grants = module.createMcpGrantRefresher({
        store: options.mcpGrants ?? noMcpGrantStore,
        timeoutMs: settings.mcpListTimeoutMs ?? 10_000,
        onAuthorizationFailed: (server, reason) => {
          logger.error(`The MCP server '${server.name}' (${server.id}) needs to be authorized again: ${reason}`);
          // Once per server and grant across instances (the failed token's fingerprint names the grant).
          const grant = createHash("sha256").update(server.accessToken ?? "").digest("hex").slice(0, 16);
          void notificationGate.firstTime(`mcp_server.authorization_failed:${server.id}:${grant}`, 86_400).then((first) => {
            if (first) delivery.notify(server.organizationId, createMcpAuthorizationFailedEvent({ serverId: server.id, serverName: server.name, reason }));
          });
        },
      });
      const upstream = module.createMcpUpstreamPool({
        grants,
        fetch: outboundFetch,
        callTimeoutMs: settings.mcpTimeoutMs ?? 60_000,
        listTimeoutMs: settings.mcpListTimeoutMs ?? 10_000,
        catalogTtlMs: settings.mcpCatalogTtlMs ?? 10_000,
        // The answer carries the result and its JSON-RPC (and SSE) framing: read up to twice the result cap.
        maxResponseBytes: 2 * (settings.mcpResultLimitBytes ?? defaultMcpResultLimitBytes),
      });
      const gateway = module.createMcpGateway({
        dependencies,
        upstream,
        publicUrl: settings.publicUrl,
        allowedOrigins: settings.mcpAllowedOrigins ?? [],
        maxResultBytes: settings.mcpResultLimitBytes ?? defaultMcpResultLimitBytes,
        onError: (message, error, requestId) => logger.error(message, error, requestId === undefined ? undefined : { request_id: requestId }),
        // A client's malformed request is not the gateway's failure: any key holder could flood the error log with them.
        onClientError: (message, error, requestId) => logger.info(message, { request_id: requestId, err: describeError(error) }),
      });
      return { ...gateway, close: async () => void (await Promise.all([gateway.close(), upstream.close()])) };
    }));
  dependencies.mcp = loadMcp;
  preloadMcp = () => void loadMcp().catch((error: unknown) => logger.error("Loading the MCP endpoint failed.", error));
  if (snapshots.current().snapshot.mcpServers.length > 0) preloadMcp();
  return {
    handler: createGatewayHandler(dependencies, { hooks: options.hooks ?? [] }),
    dependencies,
    snapshots,
    usageQueue,
    transport,
    admission,
    counterSource: redis === undefined ? "instance_counters" : "shared_counters",
    delivery,
    changes,
    redis: redis ?? null,
    tracing,
    announceControlPlaneChange() {
      changes?.announce(null);
    },
    refreshDeliveryTargets,
    createPlaygroundRunner: () => createPipelinePlaygroundRunner(dependencies, { refreshSnapshot: async () => void (await snapshots.refresh()) }),
    async close(closeOptions = {}) {
      clearInterval(deliveryRefreshTimer);
      await snapshots.stop();
      if (mcp !== null) await (await mcp).close();
      const timeoutMs = closeOptions.timeoutMs ?? 10_000;
      await Promise.all([
        usageQueue.close({ timeoutMs }),
        delivery.close({ timeoutMs: Math.min(timeoutMs, 5000) }),
        tracing?.close().catch((error: unknown) => logger.error("Exporting the last traces failed.", error)),
      ]);
      // After the drain: what is still unwritten stays in the journal for the next start.
      await journal?.close();
      await transport.close();
      if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The organization owning a budget in the snapshot, or null when it was deleted since. */
function organizationOfBudget(snapshot: CompiledSnapshot, budgetId: string): string | null {
  for (const [organizationId, budgets] of snapshot.budgetsByOrganization) {
    if (budgets.some((budget) => budget.id === budgetId)) return organizationId;
  }
  return null;
}

const silentLogger: GatewayLogger = { info: () => undefined, error: () => undefined };

/** Without a database: no grant can be read, so an expired one cannot be refreshed. */
const noMcpGrantStore: McpGrantStore = {
  read: async () => null,
  storeRefreshed: async () => false,
  markFailed: async () => false,
};
