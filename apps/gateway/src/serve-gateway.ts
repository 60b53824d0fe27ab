import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type SecretBox,
  type SqlClient,
  listEnabledNotificationChannels,
  listEnabledTelemetryDestinations,
  loadControlPlaneSnapshot,
  readControlPlaneVersion,
  recordNotificationDelivery,
  recordTelemetryDelivery,
  subscribeControlPlaneChanges,
  deleteStoredResponse,
  deleteStoredResponsesSweep,
  readStoredResponse,
  writeStoredResponse,
  writeUsageBatch,
} from "@gateway/db/data-plane";
import type { DeliveryTargets, NotificationChannelConfig, TelemetryDestinationConfig } from "@gateway/pipeline";
import { type GatewayLogger, type GatewayRuntime, createGatewayRuntime } from "./create-gateway-runtime.js";
import type { GatewaySettings } from "./gateway-settings.js";

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
  try {
    const runtime = await createGatewayRuntime({
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
      sink: { write: async (events) => void (await writeUsageBatch(database, events)) },
      // Stored Responses: one primary-key read per `previous_response_id`, one write before the answer's last byte.
      responseStore: {
        get: (key) => readStoredResponse(database, key),
        put: (record) => writeStoredResponse(database, record),
        delete: (key) => deleteStoredResponse(database, key),
      },
      settings: {
        ...settings,
        // SQLite writes on the event loop: smaller batches keep each pause short.
        usageBatchSize: settings.usageBatchSize ?? (database.provider === "sqlite" ? 100 : 500),
      },
      logger,
    });
    // Expired stored responses, and every stored response of a project that stopped capturing
    // content, are deleted in the background (reads already skip expired ones).
    const sweepStoredResponses = () => {
      const projectIds = runtime.snapshots.current().snapshot.projects.filter((project) => !project.captureContent).map((project) => project.id);
      deleteStoredResponsesSweep(database, { projectIds }).catch((error: unknown) => logger.error("Deleting expired stored responses failed.", error));
    };
    sweepStoredResponses();
    const sweepTimer = setInterval(sweepStoredResponses, 10 * 60 * 1000);
    sweepTimer.unref();
    const server = createServer(runtime.handler);
    server.listen(settings.port, settings.host);
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    const address = server.address() as AddressInfo;
    const url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
    logger.info(`Gateway listening on ${url}`);

    let closing: Promise<void> | undefined;
    return {
      url,
      server,
      database,
      secretBox,
      runtime,
      close() {
        closing ??= (async () => {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          const forceAfter = setTimeout(() => server.closeAllConnections(), settings.shutdownTimeoutMs);
          await closed;
          clearTimeout(forceAfter);
          clearInterval(sweepTimer);
          await runtime.close({ timeoutMs: settings.shutdownTimeoutMs });
          await database.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
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
