import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { UsageEventRecord } from "@gateway/contracts";
import {
  type SecretBox,
  type SqlClient,
  type UsageWriterThread,
  listEnabledNotificationChannels,
  listEnabledTelemetryDestinations,
  loadControlPlaneSnapshot,
  markMcpServerAuthorizationFailed,
  readControlPlaneVersion,
  readMcpServerGrant,
  storeRefreshedMcpServerTokens,
  recordNotificationDelivery,
  recordTelemetryDelivery,
  subscribeControlPlaneChanges,
  deleteStoredResponse,
  deleteStoredResponsesSweep,
  readStoredResponse,
  writeStoredResponse,
  openUsageWriterThread,
  resolveDatabaseUrl,
  createRecordedUsageLoaders,
  timeOrderedId,
  writeUsageBatch,
  sealUsageEventContents,
  runUsageMaintenance,
} from "@gateway/db/data-plane";
import {
  type DeliveryTargets,
  type NotificationChannelConfig,
  type TelemetryDestinationConfig,
  type UsageJournal,
  checkReadiness,
  combineCallObservers,
  openUsageJournal,
} from "@gateway/pipeline";
import { type GatewayLogger, type GatewayRuntime, createGatewayRuntime } from "./create-gateway-runtime.js";
import { closeGatewayServer, createGatewayServer } from "./create-gateway-server.js";
import type { GatewaySettings } from "./gateway-settings.js";
import type { GatewayJsonLogger } from "./logging/create-gateway-logger.js";
import { type GatewayMetrics, createGatewayMetrics } from "./observability/create-gateway-metrics.js";
import { createOperationsHook } from "./observability/create-operations-hook.js";
import { createRequestAnnotations } from "./observability/create-request-annotations.js";
import { serveMetrics } from "./observability/serve-metrics.js";

/** A database the running gateway can serve from: the raw driver and a way to close it. */
export interface ServableDatabase extends SqlClient {
  close(): Promise<void>;
}

/** A running gateway. */
export interface RunningGateway<D extends ServableDatabase = ServableDatabase> {
  /** `http://host:port` it listens on. */
  url: string;
  server: Server;
  database: D;
  /** Decrypts stored credentials; share it with a dashboard in the same process so both use one key. */
  secretBox: SecretBox;
  runtime: GatewayRuntime;
  /** The Prometheus metrics (null when neither a metrics port nor a metrics token is set). */
  metrics: GatewayMetrics | null;
  /** `http://host:port/metrics` of the separate metrics listener, or null. */
  metricsUrl: string | null;
  /** Stops accepting connections, waits for in-flight requests, drains usage events, closes the database. */
  close(): Promise<void>;
}

/**
 * Serves the data plane from a migrated, prepared database: loads the control-plane snapshot,
 * wires the runtime (usage writes, snapshot polling and LISTEN, delivery targets) on the raw
 * driver only, and listens. Closes the database when it fails to start, and on `close()`.
 */
export async function serveGateway<D extends ServableDatabase>(
  database: D,
  secretBox: SecretBox,
  settings: GatewaySettings,
  logger: GatewayLogger,
): Promise<RunningGateway<D>> {
  let metricsServer: Server | null = null;
  let usageWriterThread: UsageWriterThread | null = null;
  let usageJournal: UsageJournal | null = null;
  try {
    // Embedded SQLite runs synchronously in the calling thread: its usage inserts and commit fsyncs
    // go to a worker thread with its own connection. PostgreSQL writes are network I/O (never on the event loop).
    const sqliteFile = database.provider === "sqlite" ? resolveDatabaseUrl(settings.databaseUrl, settings.dataDirectory) : null;
    if (settings.usageWriterThread && sqliteFile !== null && sqliteFile.filePath !== null) {
      usageWriterThread = openUsageWriterThread({ url: sqliteFile.url });
    }
    const thread = usageWriterThread;
    // Captured content is cut, deflated (libuv's pool) and encrypted here, before the batch goes to
    // the writer (thread): the thread never holds the secret key.
    const writeUsage = async (events: UsageEventRecord[], options: { skipStored?: boolean; apiKeysLastUsed?: ReadonlyMap<string, Date> } = {}): Promise<number> => {
      const sealed = await sealUsageEventContents(events, secretBox);
      return thread === null ? writeUsageBatch(database, sealed, options) : thread.write(sealed, options);
    };
    if (settings.usageDurability === "journal") {
      usageJournal = openUsageJournal({
        directory: path.join(settings.dataDirectory, "usage-journal"),
        createId: timeOrderedId,
        syncIntervalMs: settings.usageJournalSyncMs,
        onError: (error) => logger.error("Usage journal error.", error),
      });
      await replayUsageJournal(usageJournal, writeUsage, logger);
    }
    const metrics = settings.metricsPort !== null || settings.metricsToken !== undefined ? createGatewayMetrics() : null;
    const requestLogger = isJsonLogger(logger) && logger.logsRequests ? logger : null;
    const annotations = requestLogger === null ? null : createRequestAnnotations();
    let servingRuntime: GatewayRuntime | null = null;
    const readiness = () =>
      checkReadiness(
        {
          database: () => readControlPlaneVersion(database),
          snapshot: () => servingRuntime?.snapshots.current() ?? Promise.reject(new Error("The gateway is starting.")),
          ...(servingRuntime?.redis ? { redis: () => servingRuntime!.redis!.ping() } : {}),
        },
        { timeoutMs: settings.readinessTimeoutMs, onFailure: (name, error) => logger.error(`Readiness check '${name}' failed.`, error) },
      );
    const operations = createOperationsHook({
      metrics,
      metricsToken: settings.metricsToken,
      logger: requestLogger,
      ...(annotations === null ? {} : { annotationOf: annotations.take }),
      readiness,
    });
    const observer = combineCallObservers([metrics?.observer, annotations?.observer]);
    const recordedUsage = createRecordedUsageLoaders(database);
    const runtime = await createGatewayRuntime({
      hooks: [operations],
      ...(observer === undefined ? {} : { observer }),
      ...(metrics === null ? {} : { events: metrics.events }),
      source: {
        load: () => loadControlPlaneSnapshot(database, { secretBox }),
        readVersion: () => readControlPlaneVersion(database),
        // PostgreSQL: LISTEN gateway_control_plane (the version triggers NOTIFY it), next to Redis announcements when configured.
        ...(database.provider === "postgresql" && settings.postgresListen
          ? {
              subscribe: (onChange: (version?: string | null) => void) =>
                subscribeControlPlaneChanges(database, onChange, {
                  onError: (error) => logger.error("PostgreSQL LISTEN for control-plane changes failed; reconnecting (polling continues).", error),
                }),
            }
          : {}),
        loadDeliveryTargets: () => loadDeliveryTargets(database, secretBox),
      },
      // Background bookkeeping of the dashboard's `last_delivery_*` columns (never on the request path).
      onDeliveryReport: (report) => {
        const record = report.kind === "telemetry" ? recordTelemetryDelivery : recordNotificationDelivery;
        record(database, report.targetId, { ok: report.delivered }).catch((error: unknown) =>
          logger.error("Recording a delivery outcome failed.", error),
        );
      },
      sink: { write: async (events, writeOptions) => void (await writeUsage(events, writeOptions)) },
      ...(usageJournal === null ? {} : { usageJournal }),
      // MCP servers' OAuth grants, refreshed on the raw driver (the writes reach every instance as a snapshot change).
      mcpGrants: {
        read: (serverId) => readMcpServerGrant(database, serverId, { secretBox }),
        storeRefreshed: (input) => storeRefreshedMcpServerTokens(database, input, { secretBox }),
        markFailed: (input) => markMcpServerAuthorizationFailed(database, input),
      },
      // A missing budget counter (or token window of an hour or more) is rebuilt from the recorded usage (off the hot path: once per counter).
      recordedSpend: recordedUsage.loadRecordedSpend,
      recordedTokens: recordedUsage.loadRecordedTokens,
      // Stored Responses: one primary-key read per `previous_response_id`, one write before the answer's last byte.
      responseStore: {
        get: (key) => readStoredResponse(database, key),
        put: (record) => writeStoredResponse(database, record),
        delete: (key) => deleteStoredResponse(database, key),
      },
      settings: {
        ...settings,
        // SQLite writes on the event loop (no writer thread): smaller batches keep each pause short.
        usageBatchSize: settings.usageBatchSize ?? (database.provider === "sqlite" && thread === null ? 100 : 500),
      },
      logger,
    });
    servingRuntime = runtime;
    metrics?.watch({ usageQueueDepth: () => runtime.usageQueue.size });
    let metricsUrl: string | null = null;
    if (metrics !== null && settings.metricsPort !== null) {
      try {
        const served = await serveMetrics(metrics, { port: settings.metricsPort, host: settings.metricsHost ?? settings.host });
        metricsServer = served.server;
        metricsUrl = served.url;
      } catch (error) {
        // The data plane never fails to start for its metrics listener; a scrape of it will fail instead.
        logger.error(`The metrics listener could not start on port ${settings.metricsPort}; serving without it (set GATEWAY_METRICS_PORT).`, error);
      }
    }
    // Usage history: PostgreSQL day partitions created a week ahead, whole days dropped past the
    // longest retention, shorter per-project retentions and expired content deleted. Every gateway
    // runs it; an advisory lock serializes the partition changes, and the deletes are idempotent.
    const maintainUsage = () => {
      runUsageMaintenance(database).catch((error: unknown) => logger.error("Usage history maintenance (partitions, retention) failed.", error));
    };
    const sweepStoredResponses = () => {
      const projectIds = runtime.snapshots.current().snapshot.projects.filter((project) => !project.captureContent).map((project) => project.id);
      deleteStoredResponsesSweep(database, { projectIds }).catch((error: unknown) => logger.error("Deleting expired stored responses failed.", error));
      maintainUsage();
    };
    // Expired stored responses, and every stored response of a project that stopped capturing
    // content, are deleted in the background (reads already skip expired ones).
    sweepStoredResponses();
    const sweepTimer = setInterval(sweepStoredResponses, 10 * 60 * 1000);
    sweepTimer.unref();
    const server = createGatewayServer(runtime.handler, {
      requestTimeoutMs: settings.requestTimeoutMs,
      keepAliveTimeoutMs: settings.keepAliveTimeoutMs,
      headersTimeoutMs: settings.headersTimeoutMs,
      writeTimeoutMs: settings.writeTimeoutMs,
      maxConnections: settings.maxConnections,
      maxConnectionsPerAddress: settings.maxConnectionsPerAddress,
    });
    server.listen(settings.port, settings.host);
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    const address = server.address() as AddressInfo;
    const url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
    logger.info(`Gateway listening on ${url} (metrics: ${metricsUrl ?? (settings.metricsToken === undefined ? "off" : "/metrics with the token")})`, { url, metrics_url: metricsUrl });

    let closing: Promise<void> | undefined;
    return {
      url,
      server,
      database,
      secretBox,
      runtime,
      metrics,
      metricsUrl,
      close() {
        closing ??= (async () => {
          await closeGatewayServer(server, settings.shutdownTimeoutMs);
          if (metricsServer !== null) {
            const stopped = new Promise<void>((resolve) => metricsServer!.close(() => resolve()));
            metricsServer.closeAllConnections();
            await stopped;
          }
          clearInterval(sweepTimer);
          await runtime.close({ timeoutMs: settings.shutdownTimeoutMs });
          await thread?.close();
          await database.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    metricsServer?.close();
    await usageJournal?.close().catch(() => undefined);
    await usageWriterThread?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Writes the events a killed process left in the journal (skipping those it had already written),
 * before the gateway serves. A failure is logged and leaves them in the journal for the next start.
 */
async function replayUsageJournal(
  journal: UsageJournal,
  writeUsage: (events: UsageEventRecord[], options: { skipStored: boolean }) => Promise<number>,
  logger: GatewayLogger,
): Promise<void> {
  const events = journal.recovered;
  if (events.length === 0) return;
  let written = 0;
  try {
    for (let start = 0; start < events.length; start += 500) {
      const batch = events.slice(start, start + 500);
      written += await writeUsage(batch, { skipStored: true });
      journal.acknowledge(batch);
    }
    logger.info(`Usage journal: wrote ${written} usage event(s) a previous process had not written (${events.length - written} were already stored).`, {
      replayed: written,
      already_stored: events.length - written,
    });
  } catch (error) {
    logger.error(`Usage journal: writing the ${events.length} event(s) of a previous process failed; they stay in the journal for the next start.`, error);
  }
}

function isJsonLogger(logger: GatewayLogger): logger is GatewayJsonLogger {
  return typeof (logger as Partial<GatewayJsonLogger>).request === "function";
}

/** Enabled telemetry destinations and notification channels of every organization (decrypted; never logged). */
async function loadDeliveryTargets(database: SqlClient, secretBox: SecretBox): Promise<DeliveryTargets> {
  const [destinations, channels] = await Promise.all([
    listEnabledTelemetryDestinations(database, { secretBox }),
    listEnabledNotificationChannels(database, { secretBox }),
  ]);
  return {
    telemetryDestinations: destinations
      .filter((destination) => destination.config.kind === "otlp_http" || destination.config.kind === "webhook")
      .map((destination) => ({
        id: destination.id,
        organizationId: destination.organizationId,
        name: destination.name,
        config: destination.config as unknown as TelemetryDestinationConfig,
      })),
    notificationChannels: channels
      .filter((channel) => ["webhook", "slack", "email"].includes(String(channel.config.kind)))
      .map((channel) => ({
        id: channel.id,
        organizationId: channel.organizationId,
        name: channel.name,
        events: channel.events,
        config: channel.config as unknown as NotificationChannelConfig,
      })),
  };
}
